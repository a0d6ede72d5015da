package api

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/chat"
)

// deadlineRecorder is a ResponseWriter whose write deadline http.ResponseController sets.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadlines []time.Time
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadlines = append(d.deadlines, t)
	return nil
}

// The write deadline of a streamed answer is not moved at every chunk (issue #20), and yet every
// write starts with at least the slow-client timeout ahead of it.
func TestWriterDeadlineNotPerChunk(t *testing.T) {
	const timeout = time.Hour // no burst of writes below takes an eighth of it
	tests := []struct {
		name      string
		timeout   time.Duration
		chunks    int
		age       time.Duration // how long ago the deadline was set before the last chunk
		wantCalls int
	}{
		{"no timeout: no deadline", 0, 50, 0, 0},
		{"a burst of chunks: one deadline", timeout, 50, 0, 1},
		{"an eighth of the timeout later: moved once more", timeout, 50, timeout / 8, 2},
		{"just under an eighth later: not moved", timeout, 50, timeout/8 - time.Minute, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
			rw := newResponseWriter(rec, true, time.Now(), newMetrics(prometheus.NewRegistry()))
			rw.writeTimeout = tt.timeout
			ch, err := chat.DecodeChunk([]byte(`{"id":"c","choices":[{"index":0,"delta":{"content":"a"}}]}`))
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.chunks {
				if i == tt.chunks-1 && tt.age > 0 {
					rw.armed = rw.armed.Add(-tt.age)
				}
				before := time.Now()
				if err := rw.WriteChunk(ch); err != nil {
					t.Fatal(err)
				}
				if n := len(rec.deadlines); n > 0 && rec.deadlines[n-1].Before(before.Add(tt.timeout)) {
					t.Fatalf("chunk %d started at %v with its deadline at %v: less than the timeout ahead", i, before, rec.deadlines[n-1])
				}
			}
			if len(rec.deadlines) != tt.wantCalls {
				t.Fatalf("%d chunks set the write deadline %d times, want %d", tt.chunks, len(rec.deadlines), tt.wantCalls)
			}
		})
	}
}
