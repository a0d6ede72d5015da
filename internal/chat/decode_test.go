package chat

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Each way a client can send what the agent does not read exactly is refused with its own code,
// never forwarded. The first rows are the bypasses issue #11 found.
func TestDecodeRefuses(t *testing.T) {
	const msgs = `"messages":[{"role":"user","content":"hola"}]`
	tests := []struct {
		name, body, code, param string
		o                       DecodeOptions
	}{
		{"PascalCase messages", `{"model":"m","Messages":[{"Role":"user","Content":"hola"}]}`, CodeInvalidFieldCasing, "Messages", DecodeOptions{}},
		{"PascalCase content beside messages", `{"model":"m","messages":[{"role":"user","content":"x","Content":"hola"}]}`, CodeInvalidFieldCasing, "messages[0].Content", DecodeOptions{}},
		{"PascalCase role", `{"model":"m","messages":[{"Role":"user","content":"x"}]}`, CodeInvalidFieldCasing, "messages[0].Role", DecodeOptions{}},
		{"upper-case user", `{"model":"m",` + msgs + `,"User":"ana@example.com"}`, CodeInvalidFieldCasing, "User", DecodeOptions{}},
		{"upper-case part text", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","TEXT":"hola"}]}]}`, CodeInvalidFieldCasing, "messages[0].content[0].TEXT", DecodeOptions{}},
		{"casing of an allowed field", `{"model":"m",` + msgs + `,"Top_K":3}`, CodeInvalidFieldCasing, "Top_K", DecodeOptions{Passthrough: []string{"top_k"}}},
		{"unknown top-level field", `{"model":"m",` + msgs + `,"top_k":3}`, CodeUnknownField, "top_k", DecodeOptions{}},
		{"unknown message field", `{"model":"m","messages":[{"role":"user","content":"x","reasoning_content":"y"}]}`, CodeUnknownField, "messages[0].reasoning_content", DecodeOptions{}},
		{"allowed top-level name is not allowed in messages", `{"model":"m","messages":[{"role":"user","content":"x","top_k":1}]}`, CodeUnknownField, "messages[0].top_k", DecodeOptions{Passthrough: []string{"top_k"}}},
		{"unknown nested field", `{"model":"m",` + msgs + `,"tools":[{"type":"function","function":{"name":"f","x":1}}]}`, CodeUnknownField, "tools[0].function.x", DecodeOptions{}},
		{"duplicate key", `{"model":"m",` + msgs + `,` + msgs + `}`, CodeDuplicateField, "messages", DecodeOptions{}},
		{"duplicate nested key", `{"model":"m","messages":[{"role":"user","content":"a","content":"b"}]}`, CodeDuplicateField, "messages[0].content", DecodeOptions{}},
		{"duplicate key in free-form JSON", `{"model":"m",` + msgs + `,"metadata":{"a":"1","a":"2"}}`, CodeDuplicateField, "metadata.a", DecodeOptions{}},
		{"input_text part", `{"model":"m","messages":[{"role":"user","content":[{"type":"input_text","text":"hola"}]}]}`, CodeInvalidValue, "messages[0].content[0].type", DecodeOptions{}},
		{"image part not allowed", `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"https://x/y.png"}}]}]}`, CodeUnsupportedContent, "messages[0].content[0].type", DecodeOptions{}},
		{"text part without text", `{"model":"m","messages":[{"role":"user","content":[{"type":"text"}]}]}`, CodeInvalidValue, "messages[0].content[0].text", DecodeOptions{}},
		{"text part with an image", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a","image_url":{"url":"u"}}]}]}`, CodeInvalidValue, "messages[0].content[0].image_url", DecodeOptions{AllowParts: []string{"image_url"}}},
		{"user as an object", `{"model":"m",` + msgs + `,"user":{"email":"ana@example.com"}}`, CodeInvalidType, "user", DecodeOptions{}},
		{"content as a number", `{"model":"m","messages":[{"role":"user","content":42}]}`, CodeInvalidType, "messages[0].content", DecodeOptions{}},
		{"model with spaces", `{"model":"Ana García","messages":[{"role":"user","content":"x"}]}`, CodeInvalidIdentifier, "model", DecodeOptions{}},
		{"model too long", `{"model":"` + strings.Repeat("m", MaxIdentifierLen+1) + `",` + msgs + `}`, CodeInvalidIdentifier, "model", DecodeOptions{}},
		{"tool name with spaces", `{"model":"m",` + msgs + `,"tools":[{"type":"function","function":{"name":"buscar cliente"}}]}`, CodeInvalidIdentifier, "tools[0].function.name", DecodeOptions{}},
		{"temperature out of range", `{"model":"m",` + msgs + `,"temperature":3}`, CodeOutOfRange, "temperature", DecodeOptions{}},
		{"n not an integer", `{"model":"m",` + msgs + `,"n":1.5}`, CodeOutOfRange, "n", DecodeOptions{}},
		{"five stop sequences", `{"model":"m",` + msgs + `,"stop":["a","b","c","d","e"]}`, CodeOutOfRange, "stop", DecodeOptions{}},
		{"stop with a number", `{"model":"m",` + msgs + `,"stop":["a",1]}`, CodeInvalidType, "stop[1]", DecodeOptions{}},
		{"metadata value not a string", `{"model":"m",` + msgs + `,"metadata":{"k":{"v":1}}}`, CodeInvalidType, "metadata.k", DecodeOptions{}},
		{"logit_bias key not a token", `{"model":"m",` + msgs + `,"logit_bias":{"hola":1}}`, CodeInvalidValue, "logit_bias", DecodeOptions{}},
		{"tool_choice unknown mode", `{"model":"m",` + msgs + `,"tool_choice":"always"}`, CodeInvalidValue, "tool_choice", DecodeOptions{}},
		{"json_schema without schema object", `{"model":"m",` + msgs + `,"response_format":{"type":"json_schema"}}`, CodeInvalidValue, "response_format.json_schema", DecodeOptions{}},
		{"bad role", `{"model":"m","messages":[{"role":"boss","content":"a"}]}`, "invalid_message", "messages[0].role", DecodeOptions{}},
		{"nested too deep", `{"model":"m",` + msgs + `,"metadata":` + strings.Repeat(`{"a":`, MaxJSONDepth+1) + `1` + strings.Repeat(`}`, MaxJSONDepth+1) + `}`, CodeTooDeep, "", DecodeOptions{}},
		{"trailing data", `{"model":"m",` + msgs + `} {}`, CodeInvalidJSON, "", DecodeOptions{}},
		{"array body", `[{"model":"m"}]`, CodeInvalidJSON, "", DecodeOptions{}},
		{"missing model", `{` + msgs + `}`, "missing_model", "model", DecodeOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, e := DecodeRequest([]byte(tt.body), tt.o)
			if e == nil {
				b, _ := json.Marshal(r)
				t.Fatalf("accepted; would forward %s", b)
			}
			if e.Code != tt.code || (tt.param != "" && e.Param != tt.param) || e.Status != 400 {
				t.Fatalf("got %d %s param %q (%s); want %s param %q", e.Status, e.Code, e.Param, e.Message, tt.code, tt.param)
			}
			if strings.Contains(e.Message, "ana@example.com") || strings.Contains(e.Message, "García") {
				t.Fatalf("the error quotes a value: %s", e.Message)
			}
		})
	}
}

// fullRequest sets every allow-listed field, as an OpenAI client may send them.
const fullRequest = `{"model":"gpt-4o","messages":[` +
	`{"role":"developer","content":"Eres un asistente","name":"sistema"},` +
	`{"role":"user","name":"ana","content":[{"type":"text","text":"hola"},{"type":"image_url","image_url":{"url":"https://x/y.png","detail":"low"}},` +
	`{"type":"input_audio","input_audio":{"data":"AAAA","format":"wav"}},{"type":"file","file":{"file_data":"QUJD","filename":"dni.pdf"}}]},` +
	`{"role":"assistant","content":null,"refusal":"no","tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}},` +
	`{"id":"call_2","type":"custom","custom":{"name":"g","input":"texto"}}],"function_call":{"name":"f","arguments":"{}"},"audio":{"id":"audio_1"}},` +
	`{"role":"tool","tool_call_id":"call_1","content":"{\"ok\":true}"},{"role":"function","name":"f","content":"x"}],` +
	`"stream":true,"stream_options":{"include_usage":true,"include_obfuscation":false},"temperature":0.7,"top_p":1,` +
	`"frequency_penalty":-0.5,"presence_penalty":0.5,"n":2,"max_tokens":100,"max_completion_tokens":200,"seed":-42,` +
	`"logprobs":true,"top_logprobs":5,"logit_bias":{"50256":-100,"13":2.5},"stop":["\n\n","FIN"],"parallel_tool_calls":false,` +
	`"store":false,"service_tier":"auto","reasoning_effort":"low","verbosity":"high","modalities":["text","audio"],` +
	`"audio":{"voice":"alloy","format":"mp3"},"prompt_cache_retention":"24h","user":"u-1","safety_identifier":"h1",` +
	`"prompt_cache_key":"k1","metadata":{"rama":"0042"},"tools":[{"type":"function","function":{"name":"f","description":"d",` +
	`"parameters":{"type":"object","properties":{"dni":{"type":"string","minLength":9}},"required":["dni"]},"strict":true}},` +
	`{"type":"custom","custom":{"name":"g","description":"d2","format":{"type":"text"}}}],` +
	`"tool_choice":{"type":"function","function":{"name":"f"}},"functions":[{"name":"h","parameters":{}}],"function_call":"auto",` +
	`"response_format":{"type":"json_schema","json_schema":{"name":"out","schema":{"type":"object"},"strict":true}},` +
	`"prediction":{"type":"content","content":"texto previsto"},"web_search_options":{"search_context_size":"low"},` +
	`"moderation":{"model":"omni"},"prompt_cache_options":{"mode":"implicit"}}`

// Every allow-listed field survives decode → encode unchanged (as JSON values).
func TestDecodeEncodeKeepsAllowListedFields(t *testing.T) {
	r, e := DecodeRequest([]byte(fullRequest), DecodeOptions{AllowParts: PartTypesNeedingConsent})
	if e != nil {
		t.Fatal(e)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, []byte(fullRequest), out) {
		t.Fatalf("round trip changed the request:\n in %s\nout %s", fullRequest, out)
	}
}

func TestPassthroughFieldsAreKeptInOrder(t *testing.T) {
	body := `{"model":"m","messages":[{"role":"user","content":"x","reasoning_content":"r"}],"top_k":3,"chat_template_kwargs":{"a":[1,"b"]}}`
	r, e := DecodeRequest([]byte(body), DecodeOptions{Passthrough: []string{"top_k", "chat_template_kwargs", "messages.reasoning_content"}})
	if e != nil {
		t.Fatal(e)
	}
	out, _ := json.Marshal(r)
	if !sameJSON(t, []byte(body), out) {
		t.Fatalf("got %s", out)
	}
	var texts []string
	_ = r.Walk(func(t Text) error { texts = append(texts, *t.S); return nil })
	if got := strings.Join(texts, " "); got != "x reasoning_content r top_k 3 chat_template_kwargs a 1 b" {
		t.Fatalf("Walk did not visit the allowed fields' keys, strings and numbers: %s", got)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// TestEveryFieldHasARule: a field added to the request types without an egress rule would be
// decoded and forwarded without anyone deciding what it may carry.
func TestEveryFieldHasARule(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var check func(reflect.Type)
	check = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] || rt == reflect.TypeFor[JSON]() || rt == reflect.TypeFor[Member]() {
			return
		}
		seen[rt] = true
		if rt == reflect.TypeFor[Content]() || rt == reflect.TypeFor[Stop]() || rt == reflect.TypeFor[TokenBias]() {
			if rt == reflect.TypeFor[Content]() {
				check(reflect.TypeFor[Part]())
			}
			return
		}
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			tag := f.Tag.Get("egress")
			kind, _, _ := strings.Cut(strings.SplitN(tag, ";", 2)[0], ":")
			switch kind {
			case "text", "jsontext", "json", "id", "opaque", "enum", "num", "int", "bool", "struct", "passthrough":
			default:
				t.Errorf("%s.%s has no egress rule", rt.Name(), f.Name)
			}
			check(f.Type)
		}
	}
	check(reflect.TypeFor[Request]())
}

// TestWalkReachesEveryText fills every text-like string of a full request with a marker, lets
// Walk replace what it visits, and checks that no marker is left in the encoded request except
// in identifiers, enums and opaque data (which are scanned at the exit instead).
func TestWalkReachesEveryText(t *testing.T) {
	body := strings.NewReplacer(`"hola"`, `"SECRET"`, `"sistema"`, `"SECRET"`, `"ana"`, `"SECRET"`, `"texto"`, `"SECRET"`,
		`"no"`, `"SECRET"`, `"texto previsto"`, `"SECRET"`, `"u-1"`, `"SECRET"`, `"h1"`, `"SECRET"`, `"k1"`, `"SECRET"`,
		`"0042"`, `"SECRET"`, `"d"`, `"SECRET"`, `"d2"`, `"SECRET"`, `"FIN"`, `"SECRET"`, `"dni.pdf"`, `"SECRET"`,
		`"https://x/y.png"`, `"SECRET"`, `{\"a\":1}`, `{\"SECRET\":1}`, `{\"ok\":true}`, `{\"SECRET\":true}`, `"x"}]`, `"SECRET"}]`,
		`"minLength":9`, `"SECRET":9`, `"rama"`, `"SECRET"`).Replace(fullRequest)
	r, e := DecodeRequest([]byte(body), DecodeOptions{AllowParts: PartTypesNeedingConsent})
	if e != nil {
		t.Fatal(e)
	}
	_ = r.Walk(func(t Text) error {
		*t.S = strings.ReplaceAll(*t.S, "SECRET", "X")
		return nil
	})
	out, _ := json.Marshal(r)
	if n := bytes.Count(out, []byte("SECRET")); n > 0 {
		t.Fatalf("%d text(s) were not visited by Walk:\n%s", n, out)
	}
	if !bytes.Contains(out, []byte(`"X"`)) {
		t.Fatal("the test planted nothing")
	}
}

// A card number sent as a JSON number inside free-form JSON is redacted too; it becomes a string.
func TestWalkRewritesNumbersAsStrings(t *testing.T) {
	r, e := DecodeRequest([]byte(`{"model":"m","messages":[{"role":"user","content":"x"}],"metadata":{"a":"b"},"tools":[{"type":"function","function":{"name":"f","parameters":{"default":4111111111111111}}}]}`), DecodeOptions{})
	if e != nil {
		t.Fatal(e)
	}
	_ = r.Walk(func(t Text) error {
		if *t.S == "4111111111111111" {
			*t.S = "@@CARD-1@@"
		}
		return nil
	})
	out, _ := json.Marshal(r)
	if !bytes.Contains(out, []byte(`"default":"@@CARD-1@@"`)) {
		t.Fatalf("got %s", out)
	}
}

func FuzzDecodeRequest(f *testing.F) {
	f.Add([]byte(fullRequest))
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":"hola"}],"top_k":1}`))
	f.Add([]byte(`{"model":"m","Messages":[]}`))
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"}]}],"stop":"x","metadata":{"a":"b"}}`))
	opts := DecodeOptions{Passthrough: []string{"top_k", "messages.x"}, AllowParts: []string{"image_url"}}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, e := DecodeRequest(body, opts)
		if e != nil {
			if e.Status != 400 || e.Code == "" {
				t.Fatalf("bad error %+v", e)
			}
			return
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("an accepted request does not encode: %v", err)
		}
		r2, e := DecodeRequest(out, opts)
		if e != nil {
			t.Fatalf("the encoded request is refused (%s): %s", e.Code, out)
		}
		out2, _ := json.Marshal(r2)
		if !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable:\n%s\n%s", out, out2)
		}
	})
}

// Message.appendTo writes role and content itself and the rest through messageRest: a field
// added to Message must be added there too, or it would be decoded and silently dropped.
func TestMessageRestHasEveryOtherField(t *testing.T) {
	rest := map[string]string{}
	rt := reflect.TypeFor[messageRest]()
	for i := 0; i < rt.NumField(); i++ {
		rest[rt.Field(i).Name] = rt.Field(i).Tag.Get("json")
	}
	mt := reflect.TypeFor[Message]()
	for i := 0; i < mt.NumField(); i++ {
		f := mt.Field(i)
		switch f.Name {
		case "Role", "Content", "Extra":
			continue
		}
		if tag, ok := rest[f.Name]; !ok || tag != f.Tag.Get("json") {
			t.Errorf("Message.%s is missing from messageRest (or its json tag differs)", f.Name)
		}
	}
}
