package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The realistic corpus (issue #13) is hand-written branch text, split once into a dev half and
// a held-out half; see testdata/redact/REALISTIC.md. The first held-out half was read twice to
// report and is now tuning data (realistic-dev2.jsonl); a fresh held-out set replaces it.
var (
	realisticDevFile  = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev.jsonl")
	realisticDev2File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev2.jsonl")
)

// realisticTypes are the entity types the realistic corpus labels; every one must occur in
// both halves.
var realisticTypes = []string{"PERSON", "DOB", "ADDRESS", "IBAN", "CCC", "DNI", "NIE", "NSS", "PHONE",
	"EMAIL", "CARD", "CARD_EXP", "CVV", "PASSPORT", "PLATE", "MRN", "IP"}

const realisticMinItems = 170

// The first held-out half (realistic-heldout.jsonl), run twice to report and tuning data since
// (realistic-dev2.jsonl); REALISTIC.md's split table records this digest.
const realisticHeldoutSHA256 = "7e330dea6b723908910ee299146c3375cdf97d65dcec5be2ad0cb7b0cdb5cafc"

// The second held-out set (issue #13), written blind on 2026-12-02 and frozen before it was
// added here; see testdata/redact/REALISTIC.md. It was run to report once and is now tuning data
// (realistic-dev4.jsonl), but its text stays as written: the digest still pins it, so a relabel
// shows up in review.
const realisticHeldoutV2SHA256 = "1049471b19287732bb4d85eaa8bfd25205db163e8a6f60d1008a65f26ad5f005"

var realisticHeldoutV2File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev4.jsonl")

// The third held-out set, written blind on 2026-12-02 13:27–13:41 UTC (digest recorded in 6defe3b
// before the file entered the tree), run once to report at 31c3f7f and tuning data since
// (realistic-dev6.jsonl). The digest still pins its text.
const realisticHeldoutV3SHA256 = "4c380457cdb1a78c014e25b4744f4a2de0fc877df033a49e8a7b3ddfe794dfb4"

var realisticHeldoutV3File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev6.jsonl")

// The fourth held-out set, written blind on 2026-12-02 14:45–14:49 UTC (digest recorded in b22a2a4
// before the file entered the tree), run once to report at 142eadc and tuning data since
// (realistic-dev8.jsonl).
const realisticHeldoutV4SHA256 = "c33d8d575a2063ad2999b0d66ad9070b46aceb985f220eec36aaafc2902adac8"

var realisticHeldoutV4File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev8.jsonl")

// The fifth held-out set, written blind on 2026-12-02 16:24–16:32 UTC (digest recorded in ef3b05f
// before the file entered the tree), run once to report at a330256 and tuning data since
// (realistic-dev10.jsonl).
const realisticHeldoutV5SHA256 = "a563a9616af5632a4f7da62aa66c4d1fb344829f683c88bff52302aec0ca08d9"

var realisticHeldoutV5File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev10.jsonl")

// The sixth held-out set, written blind on 2026-12-02 17:38–17:46 UTC (digest recorded in bb2741d
// before the file entered the tree), run once to report at c0445fe and tuning data since
// (realistic-dev12.jsonl).
const realisticHeldoutV6SHA256 = "6aee377d59b7a006e0001f07b4cb82827b4f2e5d5e6cd952818c3736a81113b2"

var realisticHeldoutV6File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev12.jsonl")

// The seventh and eighth held-out sets, written blind on 2026-12-06 05:14–05:22 and 05:33–05:40
// UTC (digests recorded in f4d3204 and 8544ae4 before the files entered the tree), both run once
// to report the eighth round and tuning data since (realistic-dev14.jsonl, realistic-dev15.jsonl).
const (
	realisticHeldoutV7SHA256 = "d51d82591609b94736cd658ef2725c2f6b2198284fabf5ea3c30f14f66353daa"
	realisticHeldoutV8SHA256 = "f4066e25c55ec26b2f0bc34b36715f8ecbc3d7463a12b1531630c09b1e51c53a"
)

var (
	realisticHeldoutV7File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev14.jsonl")
	realisticHeldoutV8File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev15.jsonl")
)

// The ninth held-out set, written blind on 2026-12-06 05:45–05:51 UTC (digest recorded in 72c83d3
// before the file entered the tree), run once to report the ninth round at 02e3e00 and tuning
// data since (realistic-dev17.jsonl).
const realisticHeldoutV9SHA256 = "23322ea2ee7096a7d6aebe2c81f3df916a4d9b8d4bf486cd9fcd3df29b652f43"

var realisticHeldoutV9File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev17.jsonl")

// The tenth held-out set, written blind on 2026-12-06 07:24–07:29 UTC (digest recorded in ea5e493
// before the file entered the tree), run once to report the tenth round at 9d027d4 and tuning
// data since (realistic-dev19.jsonl).
const realisticHeldoutV10SHA256 = "7d0392062d372f1ef701b17cd83a1a0769b489dcbdc2b7caf1b295b551641837"

var realisticHeldoutV10File = filepath.Join("..", "..", "..", "testdata", "redact", "realistic-dev19.jsonl")

// TestRealisticHeldoutSetsAreFrozen: every held-out set, spent or not, keeps the text its digest
// was recorded for (see testdata/redact/REALISTIC.md).
func TestRealisticHeldoutSetsAreFrozen(t *testing.T) {
	for _, set := range []struct{ file, sha256 string }{
		{realisticDev2File, realisticHeldoutSHA256},
		{realisticHeldoutV2File, realisticHeldoutV2SHA256},
		{realisticHeldoutV3File, realisticHeldoutV3SHA256},
		{realisticHeldoutV4File, realisticHeldoutV4SHA256},
		{realisticHeldoutV5File, realisticHeldoutV5SHA256},
		{realisticHeldoutV6File, realisticHeldoutV6SHA256},
		{realisticHeldoutV7File, realisticHeldoutV7SHA256},
		{realisticHeldoutV8File, realisticHeldoutV8SHA256},
		{realisticHeldoutV9File, realisticHeldoutV9SHA256},
		{realisticHeldoutV10File, realisticHeldoutV10SHA256},
	} {
		_, raw := readRealistic(t, set.file)
		sum := sha256.Sum256(raw)
		if got := hex.EncodeToString(sum[:]); got != set.sha256 {
			t.Errorf("%s has sha256 %s, want %s: the held-out set is frozen (see testdata/redact/REALISTIC.md)",
				set.file, got, set.sha256)
		}
	}
}

func readRealistic(t *testing.T, path string) ([]Item, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	items, err := ReadJSONL(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return items, raw
}

func TestRealisticCorpusShape(t *testing.T) {
	dev, _ := readRealistic(t, realisticDevFile)
	held, _ := readRealistic(t, realisticDev2File)
	v2, _ := readRealistic(t, realisticHeldoutV2File)
	v3, _ := readRealistic(t, realisticHeldoutV3File)
	v4, _ := readRealistic(t, realisticHeldoutV4File)
	v5, _ := readRealistic(t, realisticHeldoutV5File)
	v6, _ := readRealistic(t, realisticHeldoutV6File)
	v7, _ := readRealistic(t, realisticHeldoutV7File)
	v8, _ := readRealistic(t, realisticHeldoutV8File)
	v9, _ := readRealistic(t, realisticHeldoutV9File)
	v10, _ := readRealistic(t, realisticHeldoutV10File)
	allowed := map[string]bool{}
	for _, ty := range realisticTypes {
		allowed[ty] = true
	}
	idRe := regexp.MustCompile(`^rl-(es|en|ca|gl|eu)-(bank|clinic|law)-[0-9]{4}$`)
	ids, texts := map[string]bool{}, map[string]bool{}
	for _, half := range []struct {
		name  string
		items []Item
	}{{"dev", dev}, {"dev2 (the spent first held-out half)", held}, {"dev4 (the spent second held-out set)", v2},
		{"dev6 (the spent third held-out set)", v3},
		{"dev8 (the spent fourth held-out set)", v4}, {"dev10 (the spent fifth held-out set)", v5},
		{"dev12 (the spent sixth held-out set)", v6}, {"dev14 (the spent seventh held-out set)", v7},
		{"dev15 (the spent eighth held-out set)", v8}, {"dev17 (the spent ninth held-out set)", v9},
		{"dev19 (the spent tenth held-out set)", v10}} {
		if len(half.items) < realisticMinItems {
			t.Errorf("%s half: %d items, want at least %d", half.name, len(half.items), realisticMinItems)
		}
		types, decoys := map[string]int{}, 0
		for _, it := range half.items {
			if !idRe.MatchString(it.ID) || !strings.HasPrefix(it.ID, "rl-"+it.Lang+"-"+it.Domain+"-") {
				t.Errorf("%s: id does not match rl-<lang>-<domain>-NNNN for lang %q, domain %q", it.ID, it.Lang, it.Domain)
			}
			if ids[it.ID] {
				t.Errorf("%s: duplicate id", it.ID)
			}
			ids[it.ID] = true
			if texts[it.Text] {
				t.Errorf("%s: duplicate text", it.ID)
			}
			texts[it.Text] = true
			if len(it.Entities) == 0 && len(it.Decoys) == 0 {
				t.Errorf("%s: no entities and no decoys", it.ID) // a text of decoys alone is a precision check
			}
			for _, e := range it.Entities {
				if !allowed[e.Type] {
					t.Errorf("%s: entity type %q is not one of %v", it.ID, e.Type, realisticTypes)
				}
				types[e.Type]++
			}
			decoys += len(it.Decoys)
			if msg := realisticOverlap(it); msg != "" {
				t.Errorf("%s: %s", it.ID, msg)
			}
		}
		for _, ty := range realisticTypes {
			if types[ty] == 0 {
				t.Errorf("%s half: no %s entity", half.name, ty)
			}
		}
		if decoys < 100 {
			t.Errorf("%s half: %d decoys, want at least 100", half.name, decoys)
		}
	}
}

// realisticOverlap reports the first pair of entities that overlap, or an entity overlapping
// a decoy ("" if none).
func realisticOverlap(it Item) string {
	type span struct {
		s, e  int
		label string
	}
	var spans []span
	for i, l := range it.Entities {
		spans = append(spans, span{l.Start, l.End, "entity " + strconv.Itoa(i) + " (" + l.Type + ")"})
	}
	for i, l := range it.Decoys {
		spans = append(spans, span{l.Start, l.End, "decoy " + strconv.Itoa(i) + " (" + l.Type + ")"})
	}
	slices.SortFunc(spans, func(a, b span) int { return a.s - b.s })
	for i := 1; i < len(spans); i++ {
		if spans[i].s < spans[i-1].e {
			return spans[i-1].label + " overlaps " + spans[i].label
		}
	}
	return ""
}

// TestRealisticCheckDigits recomputes every check digit with this package's own helpers: a
// value is valid unless it is labelled "valid": false, and then it must really be invalid.
func TestRealisticCheckDigits(t *testing.T) {
	for _, path := range []string{realisticDevFile, realisticDev2File, realisticHeldoutV2File, realisticHeldoutV3File, realisticHeldoutV4File, realisticHeldoutV5File, realisticHeldoutV6File, realisticHeldoutV7File, realisticHeldoutV8File, realisticHeldoutV9File, realisticHeldoutV10File} {
		items, _ := readRealistic(t, path)
		for _, it := range items {
			for i, e := range it.Entities {
				ok, checked := realisticValid(e.Type, e.Value)
				if !checked {
					if e.Valid != nil {
						t.Errorf("%s entity %d (%s): marked valid:false but the type has no check digit", it.ID, i, e.Type)
					}
					continue
				}
				if want := e.Valid == nil || *e.Valid; ok != want {
					t.Errorf("%s entity %d (%s): check digits valid=%v, label says %v", it.ID, i, e.Type, ok, want)
				}
			}
		}
	}
}

func TestRealisticValidExamples(t *testing.T) {
	for _, tt := range []struct {
		typ, value string
		want       bool
	}{
		{"DNI", "12345678Z", true}, {"DNI", "12.345.678-z", true}, {"DNI", "ES12345678Z", true},
		{"DNI", "1234567L", true}, {"DNI", "1 2 3 4 5 6 7 8 Z", true}, {"DNI", "12345678A", false},
		{"NIE", "X1234567L", true}, {"NIE", "Y-1234567-X", true}, {"NIE", "X1234567T", false},
		{"NSS", "28/10345678/83", true}, {"NSS", "28/10345678/84", false},
		{"IBAN", "ES91 2100 0418 4502 0005 1332", true}, {"IBAN", "ES91\u00a02100\u00a00418\u00a04502\u00a00005\u00a01332", true},
		{"IBAN", "ES 91 2100 0418 45\n02 0005 1332", true}, {"IBAN", "GB29 NWBK 6016 1331 9268 19", true},
		{"IBAN", "FR76 3000 6000 0112 3456 7890 189", true}, {"IBAN", "ES91 2100 0418 4502 0005 1333", false},
		{"CCC", "2100 0418 45 0200051332", true}, {"CCC", "2100-0418-54-0200051332", false},
		{"CARD", "4111 1111 1111 1111", true}, {"CARD", "3782 822463 10005", true}, {"CARD", "4111 1111 1111 1112", false},
	} {
		if got, _ := realisticValid(tt.typ, tt.value); got != tt.want {
			t.Errorf("realisticValid(%s, %q) = %v, want %v", tt.typ, tt.value, got, tt.want)
		}
	}
}

var realisticIBANLengths = map[string]int{"ES": 24, "FR": 27, "DE": 22, "PT": 25, "IT": 27, "GB": 22, "RO": 24,
	"NL": 18, "BE": 16, "LU": 20, "CH": 21, "AT": 20, "IE": 22, "PL": 28, "AD": 24, "UA": 29, "LT": 20,
	"SE": 24, "MA": 28, "PK": 24, "IL": 23}

// realisticValid checks the value's check digits; checked is false for types without one.
func realisticValid(typ, value string) (ok, checked bool) {
	var b strings.Builder
	for _, r := range strings.ToUpper(value) {
		if (r >= '0' && r <= '9') || (r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
	}
	a := b.String()
	digits := func(s string) bool {
		for _, r := range s {
			if r < '0' || r > '9' {
				return false
			}
		}
		return s != ""
	}
	ccc := func(c string) bool {
		return len(c) == 20 && digits(c) && cccDigit("00"+c[:8]) == c[8:9] && cccDigit(c[10:]) == c[9:10]
	}
	switch typ {
	case "DNI":
		if (len(a) == 11 || len(a) == 10) && strings.HasPrefix(a, "ES") { // NIF with its country prefix (7 or 8 digits)
			a = a[2:]
		}
		if len(a) == 8 { // a 7-digit DNI written without its leading zero
			a = "0" + a
		}
		if len(a) != 9 || !digits(a[:8]) {
			return false, true
		}
		n, _ := strconv.Atoi(a[:8])
		return nifTable[n%23] == a[8], true
	case "NIE":
		if len(a) != 9 || strings.IndexByte("XYZ", a[0]) < 0 || !digits(a[1:8]) {
			return false, true
		}
		n, _ := strconv.Atoi(strconv.Itoa(strings.IndexByte("XYZ", a[0])) + a[1:8])
		return nifTable[n%23] == a[8], true
	case "NSS":
		if len(a) != 12 || !digits(a) {
			return false, true
		}
		prov, _ := strconv.Atoi(a[:2])
		num, _ := strconv.Atoi(a[2:10])
		ctl, _ := strconv.Atoi(a[10:])
		base := prov*100_000_000 + num
		if num < 10_000_000 {
			base = prov*10_000_000 + num
		}
		return base%97 == ctl, true
	case "IBAN":
		if len(a) < 15 { // shorter than any country's IBAN (Norway's 15)
			// one piece of an IBAN the text splits over several places ("ES91", "2100",
			// "0418450200051332"), each labelled: the pieces carry no check digit of their own
			return false, false
		}
		if len(a) < 5 || realisticIBANLengths[a[:2]] != len(a) || ibanCheck(a[:2], a[4:]) != a[2:4] {
			return false, true
		}
		if a[:2] == "ES" {
			return ccc(a[4:]), true
		}
		return true, true
	case "CCC":
		return ccc(a), true
	case "CARD":
		if len(a) < 13 || len(a) > 19 || !digits(a) {
			return false, true
		}
		return luhnDigit(a[:len(a)-1]) == a[len(a)-1:], true
	}
	return false, false
}
