package ollamatest_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/ollamatest"
)

func TestOptionsReachTheServer(t *testing.T) {
	// The parent's Ollama settings must not leak into the isolated server.
	t.Setenv("OLLAMA_HOST", "127.0.0.1:1")
	t.Setenv("OLLAMA_MODELS", "/nonexistent")
	for _, tc := range []struct {
		name string
		opts []ollamatest.Option
		want []string // fragments of the "server config" line Ollama logs at start
	}{
		{"defaults", nil, []string{"OLLAMA_KEEP_ALIVE:2562047h47m16.854775807s", "OLLAMA_NUM_PARALLEL:1"}},
		{"options", []ollamatest.Option{ollamatest.NumParallel(3), ollamatest.KeepAlive(90 * time.Second), ollamatest.Env("OLLAMA_MAX_QUEUE=7")},
			[]string{"OLLAMA_KEEP_ALIVE:1m30s", "OLLAMA_NUM_PARALLEL:3", "OLLAMA_MAX_QUEUE:7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ollamatest.Start(t, tc.opts...)
			log, err := os.ReadFile(s.Log)
			if err != nil {
				t.Fatal(err)
			}
			want := append(tc.want, "OLLAMA_HOST:http://127.0.0.1:"+strings.TrimPrefix(s.URL, "http://127.0.0.1:"), "OLLAMA_MODELS:"+s.Dir)
			for _, w := range want {
				if !strings.Contains(string(log), w) {
					t.Errorf("server log lacks %q", w)
				}
			}
		})
	}
}

func TestParallelStartsGetDistinctPorts(t *testing.T) {
	// Two, because `go test` runs at most GOMAXPROCS (2 here) parallel subtests at once, and both
	// servers must be alive at the same time for the check to mean anything.
	const n = 2
	var (
		mu      sync.Mutex
		ports   = map[int]bool{}
		started sync.WaitGroup
	)
	started.Add(n)
	t.Run("group", func(t *testing.T) {
		for i := range n {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				var once sync.Once
				done := func() { once.Do(started.Done) }
				t.Cleanup(done) // a failed Start must not leave the other subtest waiting
				s := ollamatest.Start(t)
				mu.Lock()
				if ports[s.Port] {
					t.Errorf("port %d handed out twice", s.Port)
				}
				ports[s.Port] = true
				mu.Unlock()
				done()
				started.Wait() // keep this server up until the other one is up too
				if _, err := s.Client().Version(context.Background()); err != nil {
					t.Fatal(err)
				}
			})
		}
	})
	if len(ports) != n {
		t.Fatalf("%d distinct ports, want %d", len(ports), n)
	}
}
