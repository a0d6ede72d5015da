package chat

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// chunkSamples are shapes real targets send (Ollama, vLLM, OpenAI) plus the odd cases that must
// take the generic path; every one must decode exactly as json.Unmarshal does.
var chunkSamples = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1764450000,"model":"tiny","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"b"},"finish_reason":null}]}`,
	`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
	`{"id":"c","choices":[{"index":0,"delta":{"content":"x"},"logprobs":null,"finish_reason":null,"stop_reason":null}],"vendor":{"a":[1,2,{"b":"}"}]}}`,
	`{"id":"c","choices":[{"index":1,"delta":{"reasoning":"think","content":null}}]}`,
	`{"id":"c","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8,"x":1}}`,
	`{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]}}]}`,
	`{"id":"c","choices":[{"index":0,"delta":{"content":"caf\u00e9 \"q\" \u0040\u0040NAME-1@@"}}]}`,
	`{"id":"c","choices":[{"index":0,"delta":{"content":"a"}},{"index":1,"delta":{"content":"b"}}]}`,
	"{\n \"id\" : \"c\" ,\n \"choices\" : [ { \"index\" : 0 , \"delta\" : { \"content\" : \"a\" } } ]\n}",
	`{"ID":"upper","id":"lower"}`,   // case-variant key: generic path
	`{"id":"a","id":"b"}`,           // repeated key: generic path
	`{"\u0069d":"escaped key"}`,     // escaped key: generic path
	`{"created":1.5}`,               // not an integer: an error, as json says
	`{"created":-0,"choices":null}`, // plain integers and null choices
	`{"choices":[null]}`,            // null choice: generic path
	`{"choices":[{"index":"0"}]}`,   // wrong type: an error
	`{"model":"\xff"}`,              // invalid UTF-8: generic path (replaced by U+FFFD)
	`{"choices":[{"delta":null,"x":null}],"y":true,"z":-12.5e3}`,
	`null`,
	`[]`,
	`{"id":`,
}

func TestDecodeChunkMatchesEncodingJSON(t *testing.T) {
	for _, s := range chunkSamples {
		checkDecodeChunk(t, []byte(s))
	}
}

func checkDecodeChunk(t *testing.T, data []byte) {
	t.Helper()
	var want Chunk
	werr := json.Unmarshal(data, &want)
	got, gerr := DecodeChunk(data)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%q: json.Unmarshal error %v, DecodeChunk error %v", data, werr, gerr)
	}
	if werr != nil {
		return
	}
	raw, kept := got.Raw()
	plain := *got
	plain.src = nil
	if !reflect.DeepEqual(plain, want) {
		t.Fatalf("%q decoded differently:\n got  %#v\n want %#v", data, plain, want)
	}
	if kept && !bytes.Equal(raw, data) {
		t.Fatalf("%q: Raw returned other bytes: %q", data, raw)
	}
}

// Raw hands the bytes back only while the chunk still says what they say.
func TestChunkRaw(t *testing.T) {
	const base = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hola @@NAME-1@@"},"finish_reason":null,"x":1}],"y":2}`
	tests := []struct {
		name   string
		data   string
		change func(c *Chunk)
		kept   bool
	}{
		{"untouched", base, func(*Chunk) {}, true},
		{"same content, new pointer", base, func(c *Chunk) { s := *c.Choices[0].Delta.Content; c.Choices[0].Delta.Content = &s }, true},
		{"content replaced", base, func(c *Chunk) { s := "hola Ana"; c.Choices[0].Delta.Content = &s }, false},
		{"content edited in place", base, func(c *Chunk) { *c.Choices[0].Delta.Content = "hola" }, false},
		{"content removed", base, func(c *Chunk) { c.Choices[0].Delta.Content = nil }, false},
		{"finish reason set", base, func(c *Chunk) { s := "stop"; c.Choices[0].FinishReason = &s }, false},
		{"tool call added", base, func(c *Chunk) { c.Choices[0].Delta.ToolCalls = []AnswerToolCall{{}} }, false},
		{"choice added", base, func(c *Chunk) { c.Choices = append(c.Choices, ChunkChoice{Index: 1}) }, false},
		{"choices dropped", base, func(c *Chunk) { c.Choices = nil }, false},
		{"model changed", base, func(c *Chunk) { c.Model = "n" }, false},
		{"usage added", base, func(c *Chunk) { c.Usage = &Usage{} }, false},
		{"extra added", base, func(c *Chunk) { c.Extra["z"] = json.RawMessage(`3`) }, false},
		{"choice extra replaced", base, func(c *Chunk) { c.Choices[0].Extra = Extra{"x": json.RawMessage(`9`)} }, false},
		{"multi-line bytes", "{\"id\":\"c\",\n\"choices\":[]}", func(*Chunk) {}, false},
		{"tool calls", `{"choices":[{"delta":{"tool_calls":[]}}]}`, func(*Chunk) {}, false},
		{"usage", `{"choices":[],"usage":null}`, func(*Chunk) {}, false},
		{"generic path", `{"id":"a","id":"b"}`, func(*Chunk) {}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := DecodeChunk([]byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			tt.change(c)
			raw, kept := c.Raw()
			if kept != tt.kept {
				t.Fatalf("Raw kept = %v, want %v", kept, tt.kept)
			}
			if kept && string(raw) != tt.data {
				t.Fatalf("Raw = %s", raw)
			}
		})
	}
	if _, kept := (&Chunk{ID: "built"}).Raw(); kept {
		t.Fatal("a chunk built in Go has bytes")
	}
}

func FuzzDecodeChunk(f *testing.F) {
	for _, s := range chunkSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecodeChunk(t, data)
	})
}

// BenchmarkChunkRelay is the agent's per-chunk JSON work on an Ollama chunk: decode, then encode
// for the user. "generic" is json.Unmarshal + json.Marshal (what the relay did before);
// "decodechunk" is DecodeChunk + Raw.
func BenchmarkChunkRelay(b *testing.B) {
	data := []byte(chunkSamples[0])
	b.Run("generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var c Chunk
			if err := json.Unmarshal(data, &c); err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(&c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decodechunk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := DecodeChunk(data)
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := c.Raw(); !ok {
				b.Fatal("bytes not kept")
			}
		}
	})
}
