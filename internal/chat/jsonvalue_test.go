package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func toAny(v JSON) any {
	switch v.Kind {
	case KindNull:
		return nil
	case KindBool:
		return v.Bool
	case KindNumber:
		return json.Number(v.Str)
	case KindString:
		return v.Str
	case KindArray:
		out := make([]any, len(v.Arr))
		for i := range v.Arr {
			out[i] = toAny(v.Arr[i])
		}
		return out
	}
	out := map[string]any{}
	for _, m := range v.Obj {
		out[m.Key] = toAny(m.Value)
	}
	return out
}

// FuzzParseJSON: the request parser accepts exactly the documents encoding/json accepts
// (except those it refuses on purpose: repeated keys, deeper than MaxJSONDepth) and reads the
// same values; its encoding reads back the same too.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,"x",true,null,{"b":[]}]`, `{"a":"\u00e9\ud83d\ude00"}`, `-0.5e+3`, `"x"`, `{"a":1,"a":2}`,
		`{"a" : [ 1 , 2 ] }`, `01`, `1.`, `{"a":1}x`, "\"\xff\"", `[1,]`, `{,}`, `tru`, `nul`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := ParseJSON(b)
		valid := json.Valid(b)
		if err != nil {
			if errors.Is(err, errDuplicateKey) || errors.Is(err, errTooDeep) {
				return
			}
			if valid {
				t.Fatalf("refused a valid document: %v\n%q", err, b)
			}
			return
		}
		if !valid {
			t.Fatalf("accepted an invalid document: %q", b)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := toAny(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("read %#v, encoding/json %#v", got, want)
		}
		enc, _ := v.MarshalJSON()
		again, err := ParseJSON(enc)
		if err != nil || !reflect.DeepEqual(toAny(again), want) {
			t.Fatalf("encoding %s does not read back (%v)", enc, err)
		}
	})
}
