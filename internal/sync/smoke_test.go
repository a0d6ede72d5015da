package sync_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sucursal/sucursal/internal/manifest"
	"github.com/sucursal/sucursal/internal/sync"
)

// fakeOllama accepts blobs and creates, and fails the first failures /api/generate calls with a
// 500 (Ollama's scheduler answers that way while it swaps runners) before answering one token.
func fakeOllama(t *testing.T, failures int32) (*httptest.Server, *atomic.Int32, *atomic.Int32) {
	t.Helper()
	var generates, deletes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/api/blobs/"):
			w.WriteHeader(http.StatusCreated)
		case r.URL.Path == "/api/create":
			_, _ = w.Write([]byte(`{"status":"success"}`))
		case r.URL.Path == "/api/generate":
			if generates.Add(1) <= failures {
				http.Error(w, `{"error":"model already loaded"}`, http.StatusInternalServerError)
				return
			}
			_, _ = w.Write([]byte(`{"response":"b","done":true,"eval_count":1}`))
		case r.URL.Path == "/api/delete":
			deletes.Add(1)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &generates, &deletes
}

// TestSmokeTestRetriesServerErrors: a transient server error during the smoke test does not roll
// back a good model; a model that fails every attempt is removed and the install fails.
func TestSmokeTestRetriesServerErrors(t *testing.T) {
	artifact := filepath.Join(t.TempDir(), "m.gguf")
	if err := os.WriteFile(artifact, []byte("GGUF"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := manifest.Manifest{Role: "drafter", Version: "1.0.0", Digest: manifest.DigestFromHex(make([]byte, 32)), Size: 4}
	for _, tc := range []struct {
		name          string
		failures      int32
		wantErr       bool
		wantGenerates int32
	}{
		{"transient 500", 1, false, 2},
		{"two transient 500s", 2, false, 3},
		{"broken model", 100, true, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, generates, deletes := fakeOllama(t, tc.failures)
			o, err := sync.NewOllama(srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = o.Install(context.Background(), m, artifact)
			if (err != nil) != tc.wantErr || (err != nil && !errors.Is(err, sync.ErrSmokeTest)) {
				t.Fatalf("install: %v, want error %v", err, tc.wantErr)
			}
			if generates.Load() != tc.wantGenerates {
				t.Fatalf("%d smoke attempts, want %d", generates.Load(), tc.wantGenerates)
			}
			if tc.wantErr != (deletes.Load() == 1) {
				t.Fatalf("%d deletes after the install (error %v)", deletes.Load(), err)
			}
		})
	}
}
