package chat

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Extra holds the JSON fields of an object that its Go type does not name, so they survive a
// decode/encode round trip (vendors add fields: vLLM's stop_reason, Ollama's reasoning, …).
type Extra map[string]json.RawMessage

var knownFields sync.Map // reflect.Type → map[string]bool

func known(t reflect.Type) map[string]bool {
	if m, ok := knownFields.Load(t); ok {
		return m.(map[string]bool)
	}
	m := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name != "" && name != "-" {
			m[name] = true
		}
	}
	knownFields.Store(t, m)
	return m
}

// decodeWithExtra decodes data into v (a pointer to a struct alias without custom methods) and
// returns the fields v's type does not name.
func decodeWithExtra(data []byte, v any) (Extra, error) {
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	k := known(reflect.TypeOf(v).Elem())
	var extra Extra
	for name, raw := range all {
		if !k[name] {
			if extra == nil {
				extra = Extra{}
			}
			extra[name] = raw
		}
	}
	return extra, nil
}

// encodeWithExtra encodes v and appends the extra fields in a stable (sorted) order.
func encodeWithExtra(v any, extra Extra) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	names := make([]string, 0, len(extra))
	for n := range extra {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	buf.Grow(len(b) + 64*len(extra))
	buf.Write(b[:len(b)-1])
	first := len(b) == 2 // "{}"
	for _, n := range names {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		key, _ := json.Marshal(n)
		buf.Write(key)
		buf.WriteByte(':')
		buf.Write(extra[n])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
