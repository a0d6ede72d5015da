package chat

import (
	"encoding/json"
	"strings"
	"testing"
)

// Unknown fields survive a decode/encode round trip, at every level, so the target gets what the
// client sent (vendor extensions, new OpenAI parameters).
func TestRequestKeepsUnknownFields(t *testing.T) {
	in := `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hola"},{"type":"image_url","image_url":{"url":"data:x"}}],"x_msg":1},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"},"x_call":true}]}],` +
		`"temperature":0.2,"stream":true,"stream_options":{"include_usage":true,"x_opt":"y"},"vendor":{"a":[1,2]}}`
	var r Request
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal([]byte(in), &a)
	_ = json.Unmarshal(out, &b)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("round trip changed the request:\n in %s\nout %s", ja, jb)
	}
}

func TestWalkVisitsEveryTextInOrder(t *testing.T) {
	in := `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"u1"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"u2"}]},` +
		`{"role":"assistant","content":"a","tool_calls":[{"function":{"name":"f","arguments":"{\"k\":1}"}}]},{"role":"tool","tool_call_id":"c","content":"{\"r\":2}"}]}`
	var r Request
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	var got []string
	_ = r.Walk(func(t Text) error {
		got = append(got, t.Role+":"+*t.S+":"+map[bool]string{true: "json", false: "text"}[t.MaybeJSON])
		return nil
	})
	want := `system:s:text user:u1:text user:u2:text assistant:a:text assistant:{"k":1}:json tool:{"r":2}:json`
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestContentRejectsOtherTypes(t *testing.T) {
	var r Request
	if err := json.Unmarshal([]byte(`{"model":"m","messages":[{"role":"user","content":42}]}`), &r); err == nil {
		t.Fatal("a number as content was accepted")
	}
}

func TestParseError(t *testing.T) {
	tests := []struct {
		status   int
		body     string
		code     string
		message  string
		typeName string
	}{
		{404, `{"error":{"message":"model \"x\" not found","type":"api_error","param":null,"code":null}}`, "model_not_found", `model "x" not found`, "api_error"},
		{400, `{"error":{"message":"bad","type":"invalid_request_error","code":"context_length_exceeded"}}`, "context_length_exceeded", "bad", "invalid_request_error"},
		{500, `{"error":"ollama says no"}`, "upstream_error", "ollama says no", "api_error"},
		{502, `<html>bad gateway</html>`, "upstream_error", "the model server answered 502 Bad Gateway", "api_error"},
	}
	for _, tt := range tests {
		e := ParseError(tt.status, []byte(tt.body))
		if e.Code != tt.code || e.Message != tt.message || e.Type != tt.typeName || e.Status != tt.status {
			t.Errorf("%d %s: got %+v", tt.status, tt.body, e)
		}
	}
}

func FuzzRequestRoundTrip(f *testing.F) {
	f.Add(`{"model":"m","messages":[{"role":"user","content":"hola"}],"x":1}`)
	f.Add(`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"t"}]}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		var r Request
		if json.Unmarshal([]byte(s), &r) != nil {
			return
		}
		out, err := json.Marshal(&r)
		if err != nil {
			t.Fatalf("a decoded request does not encode: %v", err)
		}
		var r2 Request
		if err := json.Unmarshal(out, &r2); err != nil {
			t.Fatalf("re-encoded request does not decode: %v\n%s", err, out)
		}
	})
}
