package redact

import "testing"

// Expected verdicts come from published examples (ECBS IBAN examples, card-network test
// numbers, the Interior Ministry's NIF letter table), not from this package.
func TestValidators(t *testing.T) {
	tests := []struct {
		validator, in string
		want          bool
	}{
		{"dni", "12345678Z", true},
		{"dni", "12.345.678-z", true},
		{"dni", "12345678A", false},
		{"dni", "00000000T", true},
		{"dni", "1234567Z", false},
		{"nie", "X1234567L", true},
		{"nie", "Y-1234567-X", true},
		{"nie", "Z1234567R", true},
		{"nie", "X1234567T", false},
		{"cif", "B12345674", true},  // digit control
		{"cif", "P1234567D", true},  // letter control
		{"cif", "Q2826000H", true},  // a public body
		{"cif", "B12345675", false}, // wrong digit
		{"cif", "A1234567D", false}, // A requires a digit
		{"nss", "281234567840", true},
		{"nss", "28/12345678/40", true},
		{"nss", "281234567841", false},
		{"nss", "080012345601", true}, // number below 10^7: 8*10^7+123456 = 80123456, mod 97 = 1
		{"iban", "ES91 2100 0418 4502 0005 1332", true},
		{"iban", "ES9121000418450200051332", true},
		{"iban", "ES9121000418450200051333", false}, // mod 97
		{"iban", "GB82 WEST 1234 5698 7654 32", true},
		{"iban", "DE89 3704 0044 0532 0130 00", true},
		{"iban", "FR14 2004 1010 0505 0001 3M02 606", true},
		{"iban", "GB82 WEST 1234 5698 7654 3", false}, // wrong length for GB
		{"luhn", "4111 1111 1111 1111", true},
		{"luhn", "5500-0000-0000-0004", true},
		{"luhn", "378282246310005", true},
		{"luhn", "4111 1111 1111 1112", false},
		{"luhn", "411111111111", false}, // too short
		{"ipv4", "192.168.1.20", true},
		{"ipv4", "256.1.1.1", false},
		{"ipv6", "2001:db8::1", true},
		{"ipv6", "10:30:00", false},
	}
	for _, tt := range tests {
		if got := validators[tt.validator](tt.in); got != tt.want {
			t.Errorf("%s(%q) = %v, want %v", tt.validator, tt.in, got, tt.want)
		}
	}
}

// TestIBANWithBadCCC: mod 97 alone is not enough for Spain; the CCC digits are checked too.
// ES00 is recomputed so that mod 97 passes while the account's own control digits are wrong.
func TestIBANWithBadCCC(t *testing.T) {
	bban := "21000418460200051332" // CCC control "46" instead of "45"
	check := 98 - mod97(0, bban+"ES00")
	iban := "ES" + string(rune('0'+check/10)) + string(rune('0'+check%10)) + bban
	if mod97(0, iban[4:]+iban[:4]) != 1 {
		t.Fatalf("test setup: %s does not pass mod 97", iban)
	}
	if validIBAN(iban) {
		t.Fatalf("validIBAN accepted an IBAN whose CCC control digits are wrong")
	}
}
