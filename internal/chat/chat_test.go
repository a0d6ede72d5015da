package chat

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestWalkVisitsEveryTextInOrder(t *testing.T) {
	in := `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"u1"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"u2"}]},` +
		`{"role":"assistant","content":"a","tool_calls":[{"function":{"name":"f","arguments":"{\"k\":1}"}}]},{"role":"tool","tool_call_id":"c","content":"{\"r\":2}"}]}`
	r, e := DecodeRequest([]byte(in), DecodeOptions{AllowParts: []string{"image_url"}})
	if e != nil {
		t.Fatal(e)
	}
	var got []string
	_ = r.Walk(func(t Text) error {
		got = append(got, t.Role+":"+*t.S+":"+map[bool]string{true: "json", false: "text"}[t.MaybeJSON])
		return nil
	})
	want := `system:s:text user:u1:text user:x:text user:u2:text assistant:a:text assistant:{"k":1}:json tool:{"r":2}:json`
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
