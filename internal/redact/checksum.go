package redact

import (
	"net/netip"
	"slices"
	"strings"
)

// A validator gets the matched text and reports whether its check digits are right. It is
// never asked about the shape: the recognizer's pattern already decided that.
type validator func(s string) bool

var validators = map[string]validator{
	"dni":   validDNI,
	"esnif": validNIFVAT,
	"ccc":   validCCCText,
	"nie":   validNIE,
	"cif":   validCIF,
	"nss":   validNSS,
	"iban":  validIBAN,
	"luhn":  validLuhn,
	"ipv4":  validIPv4,
	"ipv6":  validIPv6,
}

// Validators lists the names a custom recognizer may use.
func Validators() []string {
	names := make([]string, 0, len(validators))
	for n := range validators {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// alnum appends to buf the ASCII letters (upper-cased) and digits of s: the separators people
// type (dots, dashes, spaces, slashes) carry no meaning for any check digit. Validators pass
// a stack array, so checking a match allocates nothing.
func alnum(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'A' && c <= 'Z':
			buf = append(buf, c)
		case c >= 'a' && c <= 'z':
			buf = append(buf, c-'a'+'A')
		}
	}
	return buf
}

func allDigits[S ~string | ~[]byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

func atoi[S ~string | ~[]byte](s S) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

const dniLetters = "TRWAGMYFPDXBNJZSQVHLCKE"

// validDNI checks the letter of a DNI: eight digits, or seven (the number without its leading
// zero, as people write it), and the mod-23 letter.
func validDNI(s string) bool {
	var buf [32]byte
	a := alnum(buf[:0], s)
	if len(a) == 8 {
		var padded [9]byte
		padded[0] = '0'
		copy(padded[1:], a)
		a = padded[:]
	}
	if len(a) != 9 || !allDigits(a[:8]) {
		return false
	}
	return dniLetters[atoi(a[:8])%23] == a[8]
}

func validNIE(s string) bool {
	var buf [32]byte
	a := alnum(buf[:0], s)
	if len(a) != 9 {
		return false
	}
	lead := strings.IndexByte("XYZ", a[0])
	if lead < 0 || !allDigits(a[1:8]) {
		return false
	}
	return dniLetters[(lead*10_000_000+atoi(a[1:8]))%23] == a[8]
}

func validCIF(s string) bool {
	var buf [32]byte
	a := alnum(buf[:0], s)
	if len(a) != 9 || !strings.ContainsRune("ABCDEFGHJNPQRSUVW", rune(a[0])) || !allDigits(a[1:8]) {
		return false
	}
	sum := 0
	for i := 1; i <= 7; i++ {
		d := int(a[i] - '0')
		if i%2 == 1 { // positions 1,3,5,7 are doubled
			d *= 2
			d = d/10 + d%10
		}
		sum += d
	}
	digit := (10 - sum%10) % 10
	letter := "JABCDEFGHI"[digit]
	switch c := a[8]; {
	case strings.ContainsRune("PQRSNW", rune(a[0])):
		return c == letter
	case strings.ContainsRune("ABEH", rune(a[0])):
		return c == byte('0'+digit)
	default:
		return c == letter || c == byte('0'+digit)
	}
}

// validNSS checks a Seguridad Social number: 2-digit province, 8-digit number, 2 control
// digits = (province and number read as one integer) mod 97, where a number below 10^7 is
// read as province*10^7 + number.
func validNSS(s string) bool {
	var buf [32]byte
	a := alnum(buf[:0], s)
	if len(a) != 12 || !allDigits(a) {
		return false
	}
	prov, num, ctl := atoi(a[:2]), atoi(a[2:len(a)-2]), atoi(a[len(a)-2:])
	var v int
	if num < 10_000_000 {
		v = prov*10_000_000 + num
	} else {
		v = prov*100_000_000 + num
	}
	return v%97 == ctl
}

var ibanLengths = map[string]int{
	"AD": 24, "AT": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24, "DE": 22, "DK": 18,
	"EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GI": 23, "GR": 27, "HR": 21, "HU": 28,
	"IE": 22, "IS": 26, "IT": 27, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MT": 31,
	"NL": 18, "NO": 15, "PL": 28, "PT": 25, "RO": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27,
	"AL": 28, "AZ": 28, "BA": 20, "BH": 22, "BR": 29, "CR": 22, "DO": 28, "GE": 22, "IL": 23,
	"JO": 30, "KW": 30, "KZ": 20, "LB": 28, "MA": 28, "MD": 24, "ME": 22, "MK": 19, "MR": 27,
	"MU": 30, "PK": 24, "PS": 29, "QA": 29, "RS": 22, "SA": 24, "TN": 24, "TR": 26, "UA": 29,
	"AE": 23, "VA": 22, "VG": 24, "XK": 20, "EG": 29, "LC": 32,
}

// mod97 continues reading an alphanumeric number (A=10 … Z=35) whose prefix left remainder
// r, and returns the remainder mod 97 without big arithmetic.
func mod97[S ~string | ~[]byte](r int, s S) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			v := int(c-'A') + 10
			r = (r*100 + v) % 97
		} else {
			r = (r*10 + int(c-'0')) % 97
		}
	}
	return r
}

func validIBAN(s string) bool {
	var buf [64]byte
	a := alnum(buf[:0], s)
	if len(a) < 15 || len(a) > 34 {
		return false
	}
	if n, ok := ibanLengths[string(a[:2])]; ok && n != len(a) {
		return false
	}
	if !allDigits(a[2:4]) || mod97(mod97(0, a[4:]), a[:4]) != 1 {
		return false
	}
	if string(a[:2]) == "ES" {
		return allDigits(a[4:]) && validCCC(a[4:])
	}
	return true
}

// validCCC checks the two control digits of a Spanish account code (entity, office, DC,
// account).
func validCCC(ccc []byte) bool {
	weights := [10]int{1, 2, 4, 8, 5, 10, 9, 7, 3, 6}
	dc := func(digits []byte) byte {
		sum := 0
		for i := 0; i < 10; i++ {
			sum += int(digits[i]-'0') * weights[i]
		}
		d := 11 - sum%11
		switch d {
		case 11:
			d = 0
		case 10:
			d = 1
		}
		return byte('0' + d)
	}
	head := [10]byte{'0', '0'} // "00" + entity and office
	copy(head[2:], ccc[:8])
	return dc(head[:]) == ccc[8] && dc(ccc[10:20]) == ccc[9]
}

func validLuhn(s string) bool {
	var buf [64]byte
	a := alnum(buf[:0], s)
	if len(a) < 13 || len(a) > 19 || !allDigits(a) {
		return false
	}
	sum := 0
	for i := len(a) - 1; i >= 0; i-- {
		d := int(a[i] - '0')
		if (len(a)-1-i)%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

func validIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

func validIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6()
}
