package ollamatest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/testmodel"
)

// createTimeout bounds upload, create and first load of a tiny model.
const createTimeout = 2 * time.Minute

// CreateModel writes spec as a GGUF in the server's directory, uploads it with /api/blobs and
// /api/create (the same path the edge agent's installer uses), and loads it, so the first real
// request does not pay for the load. An empty template leaves Ollama's default, "{{ .Prompt }}".
func (s *Server) CreateModel(t testing.TB, name string, spec testmodel.Spec, template string) {
	t.Helper()
	if err := s.createModel(name, spec, template); err != nil {
		t.Fatalf("ollamatest: create model %q: %v\n--- tail of %s ---\n%s", name, err, s.Log, s.LogTail())
	}
}

func (s *Server) createModel(name string, spec testmodel.Spec, template string) error {
	ctx, cancel := context.WithTimeout(context.Background(), createTimeout)
	defer cancel()
	var buf bytes.Buffer
	if err := testmodel.Write(&buf, spec); err != nil {
		return err
	}
	// Keep a copy next to the log: a failing test can then be replayed by hand.
	if err := os.WriteFile(filepath.Join(s.Dir, name+".gguf"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	sum := sha256.Sum256(buf.Bytes())
	digest := "sha256:" + hex.EncodeToString(sum[:])
	c := s.Client()
	if err := c.CreateBlob(ctx, digest, bytes.NewReader(buf.Bytes())); err != nil {
		return fmt.Errorf("upload blob: %w", err)
	}
	stream := false
	req := &api.CreateRequest{
		Model:    name,
		Files:    map[string]string{name + ".gguf": digest},
		Template: template,
		Stream:   &stream,
		// One thread is plenty for a tiny model, and llama.cpp's spinning worker threads slow
		// everything down when parallel test processes share two cores. Requests may override it.
		Parameters: map[string]any{"num_thread": 1},
	}
	if err := c.Create(ctx, req, func(api.ProgressResponse) error { return nil }); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	// A generate request without a prompt only loads the model. Ollama gives its runner a port it
	// found free a moment before; when another test process takes that port first, the runner
	// exits ("bind: address already in use") and the load request waits until its deadline. So a
	// load gets its own, shorter deadline, and a load whose runner terminated is tried again.
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		offset := int64(0)
		if fi, serr := os.Stat(s.Log); serr == nil {
			offset = fi.Size()
		}
		lctx, lcancel := context.WithTimeout(ctx, loadTimeout)
		err = c.Generate(lctx, &api.GenerateRequest{Model: name}, func(api.GenerateResponse) error { return nil })
		lcancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || !strings.Contains(s.logSince(offset), "llama runner terminated") {
			break
		}
	}
	return fmt.Errorf("load: %w", err)
}

// loadTimeout bounds one attempt to load a tiny model (a second or two when it works).
const loadTimeout = 40 * time.Second
