package guard

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func codes(cs []Category) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Code
	}
	return out
}

func TestParseLlamaGuard(t *testing.T) {
	tests := []struct {
		name, out string
		malformed bool
		want      []string // codes, nil for safe
	}{
		{name: "safe", out: "safe"},
		{name: "safe with Llama Guard 3's leading blank lines", out: "\n\nsafe"},
		{name: "safe with CRLF and trailing space", out: "safe \r\n"},
		{name: "safe in capitals", out: "SAFE"},
		{name: "unsafe one", out: "unsafe\nS2", want: []string{"S2"}},
		{name: "unsafe several, sorted", out: "unsafe\nS10,S1,S3", want: []string{"S1", "S3", "S10"}},
		{name: "unsafe spaces, lowercase, duplicates", out: "\n\nunsafe\n s14 , S2,S2 ", want: []string{"S2", "S14"}},
		{name: "unsafe without categories", out: "unsafe", malformed: true},
		{name: "unknown category", out: "unsafe\nS15", malformed: true},
		{name: "S0", out: "unsafe\nS0", malformed: true},
		{name: "empty category", out: "unsafe\nS1,,S2", malformed: true},
		{name: "category names instead of codes", out: "unsafe\nViolent Crimes", malformed: true},
		{name: "extra line after categories", out: "unsafe\nS1\nbecause", malformed: true},
		{name: "safe with categories", out: "safe\nS1", malformed: true},
		{name: "empty", out: "", malformed: true},
		{name: "blank", out: " \n\t\n", malformed: true},
		{name: "chatty", out: "The conversation is safe.", malformed: true},
		{name: "prefix only", out: "saf", malformed: true},
		{name: "too long", out: "unsafe\nS1" + strings.Repeat(",S1", 100), malformed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ParseLlamaGuard(tt.out)
			if tt.malformed {
				if !errors.Is(err, ErrMalformedOutput) {
					t.Fatalf("err = %v, want ErrMalformedOutput", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if v.Kind != KindSafety || v.Malicious != (tt.want != nil) || !slices.Equal(codes(v.Categories), tt.want) {
				t.Fatalf("verdict = %+v, want malicious=%v categories %v", v, tt.want != nil, tt.want)
			}
			for _, c := range v.Categories {
				if want, _ := LookupCategory(c.Code); c.Name != want.Name || c.Name == "" {
					t.Errorf("category %s has name %q", c.Code, c.Name)
				}
			}
		})
	}
}

func TestParseErrorsNeverQuoteOutput(t *testing.T) {
	const secret = "SECRET-4111111111111111"
	for _, out := range []string{secret, "unsafe\n" + secret, "safe\n" + secret, "unsafe\nS1\n" + secret, strings.Repeat(secret, 20)} {
		if _, err := ParseLlamaGuard(out); err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("ParseLlamaGuard error %v: want an error that does not quote the output", err)
		}
		if _, err := ParsePromptGuardLabel(out); err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("ParsePromptGuardLabel error %v: want an error that does not quote the output", err)
		}
	}
}

func TestSafetyCategoriesAreTheStandardFourteen(t *testing.T) {
	cs := SafetyCategories()
	if len(cs) != 14 {
		t.Fatalf("%d categories, want 14", len(cs))
	}
	names := map[string]bool{}
	for i, c := range cs {
		if c.Code != "S"+itoa(i+1) || c.Name == "" || names[c.Name] {
			t.Errorf("category %d = %+v", i, c)
		}
		names[c.Name] = true
	}
	// Spot checks against the Llama Guard 3 model card.
	for code, name := range map[string]string{"S1": "Violent Crimes", "S2": "Non-Violent Crimes", "S6": "Specialized Advice", "S14": "Code Interpreter Abuse"} {
		if c, _ := LookupCategory(code); c.Name != name {
			t.Errorf("%s = %q, want %q", code, c.Name, name)
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

func TestParsePromptGuardLabel(t *testing.T) {
	tests := []struct {
		out       string
		malicious bool
		malformed bool
	}{
		{"BENIGN", false, false}, {" benign\n", false, false}, {"LABEL_0", false, false},
		{"MALICIOUS", true, false}, {"malicious", true, false}, {"INJECTION", true, false},
		{"JAILBREAK", true, false}, {"LABEL_1", true, false},
		{"", false, true}, {"LABEL_2", false, true}, {"BENIGN MALICIOUS", false, true}, {"safe", false, true},
	}
	for _, tt := range tests {
		m, err := ParsePromptGuardLabel(tt.out)
		if tt.malformed != errors.Is(err, ErrMalformedOutput) || (err == nil) == tt.malformed {
			t.Errorf("%q: err = %v, malformed want %v", tt.out, err, tt.malformed)
			continue
		}
		if err == nil && m != tt.malicious {
			t.Errorf("%q: malicious = %v, want %v", tt.out, m, tt.malicious)
		}
	}
}

// FuzzParseLlamaGuard checks the parser's contract on any input: it never panics; a verdict is
// unsafe exactly when its first non-blank line says so, and then names at least one valid, distinct
// category; errors are ErrMalformedOutput and never quote the input.
func FuzzParseLlamaGuard(f *testing.F) {
	for _, s := range []string{"safe", "unsafe\nS1", "\n\nunsafe\nS1,S14", "unsafe", "unsafe\nS99", "SECRET-x", "safe\nSECRET-y", "unsafe\nS1,SECRET"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		v, err := ParseLlamaGuard(out)
		if err != nil {
			if !errors.Is(err, ErrMalformedOutput) {
				t.Fatalf("error %v is not ErrMalformedOutput", err)
			}
			if strings.Contains(out, "SECRET") && strings.Contains(err.Error(), "SECRET") {
				t.Fatalf("error quotes the output")
			}
			return
		}
		var first string
		for _, l := range strings.Split(out, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				first = strings.ToLower(l)
				break
			}
		}
		if v.Malicious != (first == "unsafe") || (!v.Malicious && first != "safe") {
			t.Fatalf("first line %q gave malicious=%v", first, v.Malicious)
		}
		if v.Malicious != (len(v.Categories) > 0) {
			t.Fatalf("malicious=%v with %d categories", v.Malicious, len(v.Categories))
		}
		seen := map[string]bool{}
		for _, c := range v.Categories {
			if _, ok := LookupCategory(c.Code); !ok || seen[c.Code] {
				t.Fatalf("bad or repeated category %q", c.Code)
			}
			seen[c.Code] = true
		}
	})
}
