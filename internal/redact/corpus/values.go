package corpus

import (
	"fmt"
	"strconv"
	"strings"
)

// Value generators. Each computes its check digits from the published algorithm, written
// again here on purpose (see doc.go).

const nifTable = "TRWAGMYFPDXBNJZSQVHLCKE"

func (r *rng) dni(valid bool) string {
	num := r.digits(8)
	n, _ := strconv.Atoi(num)
	letter := nifTable[n%23]
	if !valid {
		letter = nifTable[(n+1+r.intn(21))%23]
	}
	l := string(letter)
	if r.chance(15) {
		l = strings.ToLower(l)
	}
	switch r.intn(4) {
	case 0:
		return num[:2] + "." + num[2:5] + "." + num[5:] + "-" + l
	case 1:
		return num + "-" + l
	default:
		return num + l
	}
}

func (r *rng) nie() string {
	lead := r.intn(3)
	num := r.digits(7)
	n, _ := strconv.Atoi(strconv.Itoa(lead) + num)
	s := string("XYZ"[lead]) + num + string(nifTable[n%23])
	if r.chance(30) {
		return s[:1] + "-" + s[1:8] + "-" + s[8:]
	}
	return s
}

func (r *rng) cif() string {
	first := r.pick([]string{"A", "B", "B", "B", "G", "N", "P", "Q", "S"})
	d := r.digits(7)
	even, odd := 0, 0
	for i := 0; i < 7; i++ {
		v := int(d[i] - '0')
		if i%2 == 0 { // 1st, 3rd, 5th, 7th digit
			v *= 2
			odd += v/10 + v%10
		} else {
			even += v
		}
	}
	c := (10 - (even+odd)%10) % 10
	ctl := strconv.Itoa(c)
	if strings.Contains("NPQRSW", first) {
		ctl = string("JABCDEFGHI"[c])
	}
	return first + d + ctl
}

func (r *rng) nss() string {
	prov := fmt.Sprintf("%02d", 1+r.intn(52))
	num := fmt.Sprintf("%08d", 10_000_000+r.intn(89_999_999))
	base, _ := strconv.Atoi(prov + num)
	ctl := fmt.Sprintf("%02d", base%97)
	switch r.intn(3) {
	case 0:
		return prov + "/" + num + "/" + ctl
	case 1:
		return prov + " " + num + " " + ctl
	}
	return prov + num + ctl
}

// ibanCheck returns the two check digits for country + bban: 98 - (bban country "00") mod 97.
func ibanCheck(country, bban string) string {
	s := bban + country + "00"
	rem := 0
	for _, c := range s {
		var v int
		if c >= 'A' && c <= 'Z' {
			v = int(c-'A') + 10
			rem = (rem*100 + v) % 97
			continue
		}
		rem = (rem*10 + int(c-'0')) % 97
	}
	return fmt.Sprintf("%02d", 98-rem)
}

func cccDigit(ten string) string {
	w := []int{1, 2, 4, 8, 5, 10, 9, 7, 3, 6}
	sum := 0
	for i := range ten {
		sum += int(ten[i]-'0') * w[i]
	}
	d := 11 - sum%11
	if d == 11 {
		d = 0
	} else if d == 10 {
		d = 1
	}
	return strconv.Itoa(d)
}

func (r *rng) iban() string {
	var country, bban string
	switch r.intn(6) {
	case 0:
		country, bban = "DE", r.digits(18)
	case 1:
		country, bban = "PT", r.digits(21)
	case 2:
		country, bban = "GB", r.pick([]string{"WEST", "BARC", "NWBK", "LOYD"})+r.digits(14)
	default:
		bank, office, acct := r.digits(4), r.digits(4), r.digits(10)
		country, bban = "ES", bank+office+cccDigit("00"+bank+office)+cccDigit(acct)+acct
	}
	s := country + ibanCheck(country, bban) + bban
	if r.chance(35) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i += 4 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[i:min(i+4, len(s))])
	}
	return b.String()
}

func luhnDigit(payload string) string {
	sum := 0
	for i := len(payload) - 1; i >= 0; i-- {
		d := int(payload[i] - '0')
		if (len(payload)-i)%2 == 1 { // doubled: every second digit from the right of the full number
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return strconv.Itoa((10 - sum%10) % 10)
}

func (r *rng) card(valid bool) string {
	var pan string
	switch r.intn(3) {
	case 0:
		pan = "4" + r.digits(14)
	case 1:
		pan = "5" + string(byte('1'+r.intn(5))) + r.digits(13)
	default:
		pan = "37" + r.digits(12)
	}
	d := luhnDigit(pan)
	if !valid {
		n, _ := strconv.Atoi(d)
		d = strconv.Itoa((n + 1 + r.intn(9)) % 10)
	}
	pan += d
	sep := r.pick([]string{" ", " ", "-", ""})
	if sep == "" {
		return pan
	}
	groups := []int{4, 4, 4, 4}
	if len(pan) == 15 {
		groups = []int{4, 6, 5}
	}
	var parts []string
	at := 0
	for _, g := range groups {
		parts = append(parts, pan[at:at+g])
		at += g
	}
	return strings.Join(parts, sep)
}

func (r *rng) phone() string {
	if r.chance(20) { // foreign E.164
		return r.pick([]string{"+44 20 ", "+33 6 ", "+49 30 ", "+351 21 "}) + r.digits(3) + " " + r.digits(4)
	}
	first := r.pick([]string{"6", "6", "6", "7", "91", "93", "96", "95", "98"})
	rest := r.digits(9 - len(first))
	n := first + rest
	prefix := ""
	if r.chance(30) {
		prefix = r.pick([]string{"+34 ", "+34", "0034 "})
	}
	switch r.intn(4) {
	case 0:
		return prefix + n
	case 1:
		return prefix + n[:3] + " " + n[3:6] + " " + n[6:]
	case 2:
		return prefix + n[:3] + " " + n[3:5] + " " + n[5:7] + " " + n[7:]
	}
	return prefix + n[:3] + "-" + n[3:6] + "-" + n[6:]
}

var months = map[string][]string{
	"es": {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
}

func (r *rng) date(lang string, yearFrom, years int) string {
	d, m, y := 1+r.intn(28), 1+r.intn(12), yearFrom+r.intn(years)
	switch r.intn(4) {
	case 0:
		return fmt.Sprintf("%02d/%02d/%d", d, m, y)
	case 1:
		return fmt.Sprintf("%d-%02d-%02d", y, m, d)
	}
	if lang == "es" {
		return fmt.Sprintf("%d de %s de %d", d, months["es"][m-1], y)
	}
	return fmt.Sprintf("%s %d, %d", months["en"][m-1], d, y)
}

var (
	streets = []string{"Mayor", "Alcalá", "Gran Vía", "Serrano", "de la Constitución", "del Prado", "Colón",
		"San Vicente", "Real", "Nueva", "de Goya", "Diagonal", "Urquijo", "do Vilar", "Sant Joan", "de los Reyes Católicos"}
	streetTypes = []string{"Calle", "C/", "Avda.", "Avenida", "Paseo", "Plaza", "Ronda", "Carrer", "Rúa"}
	cities      = []struct{ cp, name string }{{"28013", "Madrid"}, {"08029", "Barcelona"}, {"46004", "Valencia"},
		{"41001", "Sevilla"}, {"48001", "Bilbao"}, {"15701", "Santiago de Compostela"}, {"50001", "Zaragoza"}, {"29015", "Málaga"}}
)

func (r *rng) address() string {
	s := r.pick(streetTypes) + " " + r.pick(streets) + r.pick([]string{" ", ", ", ", nº "}) + strconv.Itoa(1+r.intn(180))
	if r.chance(60) {
		s += ", " + strconv.Itoa(1+r.intn(9)) + "º " + r.pick([]string{"A", "B", "C", "D", "Izq", "Dcha"})
	}
	c := cities[r.intn(len(cities))]
	if r.chance(75) {
		s += ", " + c.cp + " " + c.name
	}
	return s
}

func (r *rng) passport() string {
	const letters = "ABCDEFGHJKLMNPRSTUVXYZ"
	return "P" + string(letters[r.intn(len(letters))]) + string(letters[r.intn(len(letters))]) + r.digits(6)
}

func (r *rng) ip() string {
	if r.chance(25) {
		return fmt.Sprintf("2001:db8:%x:%x::%x", r.intn(0xffff), r.intn(0xffff), 1+r.intn(0xfff))
	}
	return fmt.Sprintf("%d.%d.%d.%d", r.pick2(10, 192, 172, 81), r.intn(256), r.intn(256), 1+r.intn(254))
}

func (r *rng) pick2(xs ...int) int { return xs[r.intn(len(xs))] }

// Names: most are common (what a gazetteer should know); some are deliberately rare, so that
// recall reflects names only an honorific or a model can find.
var (
	given = []string{"Juan", "María", "José", "Carmen", "Javier", "Lucía", "Antonio", "Laura", "Jordi", "Montserrat",
		"Iker", "Ainhoa", "Xoán", "Uxía", "Pablo", "Elena", "Miguel", "Nuria", "Sergio", "Marta",
		"James", "Sarah", "Michael", "Emily", "David", "Olivia",
		"Leocadia", "Eulalio", "Begoña", "Txomin", "Nahia", "Fiona", "Declan", "Wenceslao"}
	family = []string{"García", "Martínez", "López", "Sánchez", "Pérez", "Gómez", "Fernández", "Ruiz", "Puig", "Ferrer",
		"Etxeberria", "Agirre", "Otero", "Castro", "Smith", "Taylor", "Navarro", "Iglesias",
		"Zuloaga", "Villalpando", "Quesada", "Albarracín", "O'Connor", "Urquiza"}
	emailDomains = []string{"gmail.com", "hotmail.es", "outlook.com", "yahoo.es", "telefonica.net", "example.org"}
)

func (r *rng) person() string {
	s := r.pick(given) + " " + r.pick(family)
	if r.chance(50) {
		s += " " + r.pick(family)
	}
	return s
}

func (r *rng) email(person string) string {
	parts := strings.Fields(person)
	local := foldASCII(parts[0]) + r.pick([]string{".", "_", ""}) + foldASCII(parts[1])
	if r.chance(40) {
		local += strconv.Itoa(r.intn(100))
	}
	return strings.ToLower(local) + "@" + r.pick(emailDomains)
}

func foldASCII(s string) string {
	return strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "ñ", "n", "'", "", "Á", "A", "É", "E", "Ó", "O", "Ú", "U").Replace(s)
}

// Decoys: numbers and dates that are not personal data.
func (r *rng) decoy(kind, lang string) string {
	switch kind {
	case "AMOUNT":
		if lang == "es" {
			return r.pick([]string{strconv.Itoa(1+r.intn(9)) + "." + r.digits(3) + "," + r.digits(2) + " €", strconv.Itoa(10+r.intn(990)) + " euros"})
		}
		return r.pick([]string{"€" + strconv.Itoa(1+r.intn(9)) + "," + r.digits(3) + "." + r.digits(2), "$" + strconv.Itoa(10+r.intn(990))})
	case "ORDER":
		return r.pick([]string{"PED-2025-" + r.digits(6), "ORD-" + r.digits(5) + "-X", "REF/" + r.digits(4) + "/B"})
	case "MEETING":
		return r.date(lang, 2025, 2)
	case "CASE":
		return r.pick([]string{strconv.Itoa(1+r.intn(2999)) + "/2024", "2024-CV-" + r.digits(5), "PO " + strconv.Itoa(1+r.intn(999)) + "/2025"})
	case "PRODUCT":
		return r.pick([]string{"SKU-" + r.digits(2) + "AB-" + r.digits(4), "HX-" + r.digits(4), "modelo TX-" + r.digits(3)})
	}
	panic("corpus: unknown decoy kind " + kind)
}
