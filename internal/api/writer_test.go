package api

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
)

// A relayed chunk goes out as the bytes it came in, and one a stage changed is encoded again.
func TestWriterChunks(t *testing.T) {
	type step struct {
		data      string // as relayed
		edit      bool   // a stage changes the content
		wantEvent string
	}
	const a = `{"id":"c", "choices":[{"index":0,"delta":{"content":"a"}}],"x_vendor":1}`
	const b = `{"id":"c","choices":[{"index":0,"delta":{"content":"@@NAME-1@@"}}]}`
	tests := []struct {
		name  string
		steps []step
	}{
		{"untouched", []step{{data: a, wantEvent: a}}},
		{"untouched twice", []step{{data: a, wantEvent: a}, {data: b, wantEvent: b}}},
		{"changed", []step{{data: b, edit: true,
			wantEvent: `{"id":"c","object":"","created":0,"model":"","choices":[{"index":0,"delta":{"content":"Ana"},"finish_reason":null}]}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			rw := newResponseWriter(rec, true, time.Now(), newMetrics(prometheus.NewRegistry()))
			var want strings.Builder
			for i, s := range tt.steps {
				c, err := chat.DecodeChunk([]byte(s.data))
				if err != nil {
					t.Fatal(err)
				}
				if s.edit {
					v := "Ana"
					c.Choices[0].Delta.Content = &v
				}
				rec.Flushed = false
				if err := rw.WriteChunk(c); err != nil {
					t.Fatal(err)
				}
				want.WriteString("data: " + s.wantEvent + "\n\n")
				if !rec.Flushed {
					t.Fatalf("step %d: the chunk was not flushed", i)
				}
			}
			if got := rec.Body.String(); got != want.String() {
				t.Fatalf("body\n got %q\nwant %q", got, want.String())
			}
		})
	}
}
