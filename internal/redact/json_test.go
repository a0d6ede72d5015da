package redact

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestRedactJSON(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	s := r.NewSession(0)
	defer s.Close()
	in := `{"cliente":"Sr. Jos\u00e9 P\u00e9rez","dni":"12345678Z","importe":120.5,"tags":["ok","tel 600 123 456"]}`
	out, err := s.RedactJSON(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"Jos", "P\\u00e9rez", "12345678Z", "600 123 456"} {
		if strings.Contains(out, v) {
			t.Errorf("%q left in %s", v, out)
		}
	}
	if !json.Valid([]byte(out)) {
		t.Fatalf("not JSON: %s", out)
	}
	var a, b any
	_ = json.Unmarshal([]byte(in), &a)
	_ = json.Unmarshal([]byte(s.RehydrateJSON(out)), &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("rehydrated document differs:\n%v\n%v", a, b)
	}
}

// FuzzRedactJSON: any valid JSON stays valid after redaction and comes back equal in value.
func FuzzRedactJSON(f *testing.F) {
	f.Add(`{"a":"Sr. Juan P\u00e9rez","b":[1,"DNI 12345678Z",null,{"c":"@@PERSON-1@@"}]}`)
	f.Add(`"\\\"@@\""`)
	f.Add(`[]`)
	r := newTestRedactor(f, DefaultConfig())
	f.Fuzz(func(t *testing.T, doc string) {
		if !json.Valid([]byte(doc)) {
			return
		}
		s := r.NewSession(0)
		defer s.Close()
		out, err := s.RedactJSON(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid([]byte(out)) {
			t.Fatalf("RedactJSON(%q) = %q is not JSON", doc, out)
		}
		// Numbers as json.Number: a valid document may hold one no float64 can take.
		a, errA := decodeUseNumber(doc)
		b, errB := decodeUseNumber(s.RehydrateJSON(out))
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("round trip of %q: %v / %v (%v, %v)", doc, a, b, errA, errB)
		}
	})
}

func decodeUseNumber(doc string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
