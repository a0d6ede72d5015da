package sync

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/sucursal/sucursal/internal/manifest"
)

// ErrSmokeTest is returned when a freshly installed model does not answer a one-token generate.
var ErrSmokeTest = errors.New("sync: smoke test failed")

// Installer puts a verified artifact into one local runtime. Install must be atomic from the
// pipeline's point of view: until it returns a ref, the running model is untouched. Ref is what
// the pipeline uses to address the model (an Ollama model name, or a file path).
type Installer interface {
	Install(ctx context.Context, m manifest.Manifest, artifactPath string) (ref string, err error)
	Remove(ctx context.Context, ref string) error
}

// ModelName is the runtime name of a role's version, e.g. "sucursal-drafter:1.2.0".
func ModelName(m manifest.Manifest) string { return "sucursal-" + m.Role + ":" + m.Version }

// Ollama installs GGUF artifacts into an Ollama server: upload the blob under its digest, create
// the model from it, then generate one token to prove it loads and answers.
type Ollama struct {
	client *api.Client
}

// NewOllama returns an installer for the Ollama server at base (e.g. http://127.0.0.1:11434).
func NewOllama(base string, hc *http.Client) (*Ollama, error) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("sync: ollama url %q: must be http(s)://host:port", base)
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Ollama{client: api.NewClient(u, hc)}, nil
}

// Install implements Installer.
func (o *Ollama) Install(ctx context.Context, m manifest.Manifest, artifactPath string) (string, error) {
	f, err := os.Open(artifactPath)
	if err != nil {
		return "", fmt.Errorf("sync: open artifact: %w", err)
	}
	defer f.Close()
	// Ollama re-hashes the upload and refuses it if it does not match: a second, independent check.
	if err := o.client.CreateBlob(ctx, m.Digest, f); err != nil {
		return "", fmt.Errorf("sync: ollama blob upload: %w", err)
	}
	name := ModelName(m)
	stream := false
	req := &api.CreateRequest{Model: name, Files: map[string]string{"model.gguf": m.Digest}, Stream: &stream}
	if err := o.client.Create(ctx, req, func(api.ProgressResponse) error { return nil }); err != nil {
		return "", fmt.Errorf("sync: ollama create: %w", err)
	}
	if err := o.smoke(ctx, name); err != nil {
		_ = o.Remove(context.WithoutCancel(ctx), name)
		return "", err
	}
	return name, nil
}

func (o *Ollama) smoke(ctx context.Context, name string) error {
	// Ollama's scheduler sometimes answers a load with a transient 500 ("model already loaded"
	// while it is still swapping runners, seen under load). Failing the install on that would roll
	// back a good model, so a server error is retried a few times before it counts; a broken model
	// fails every attempt.
	var err error
	for attempt := range smokeAttempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return fmt.Errorf("%w: %w", ErrSmokeTest, ctx.Err())
			case <-time.After(smokeRetryAfter):
			}
		}
		var status api.StatusError
		if err = o.smokeOnce(ctx, name); err == nil || !errors.As(err, &status) || status.StatusCode < 500 {
			return err
		}
	}
	return err
}

// smokeAttempts and smokeRetryAfter bound the smoke test's retries of server errors.
const (
	smokeAttempts   = 3
	smokeRetryAfter = 500 * time.Millisecond
)

func (o *Ollama) smokeOnce(ctx context.Context, name string) error {
	answered := false
	// A fixed, content-free prompt: the smoke test must never carry user text.
	req := &api.GenerateRequest{Model: name, Prompt: "a", Raw: true, Options: map[string]any{"num_predict": 1, "temperature": 0}}
	err := o.client.Generate(ctx, req, func(r api.GenerateResponse) error {
		if r.Done {
			answered = r.EvalCount > 0 || r.Response != ""
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrSmokeTest, err)
	}
	if !answered {
		return fmt.Errorf("%w: no token generated", ErrSmokeTest)
	}
	return nil
}

// Remove implements Installer.
func (o *Ollama) Remove(ctx context.Context, ref string) error {
	if err := o.client.Delete(ctx, &api.DeleteRequest{Model: ref}); err != nil && !strings.Contains(err.Error(), "not found") {
		return fmt.Errorf("sync: ollama delete: %w", err)
	}
	return nil
}

// Files is the installer for runtimes that load a model file themselves (llama.cpp, OVMS): the
// verified artifact stays in the data dir and its path is the ref.
type Files struct{}

// Install implements Installer. The runtime will load the file itself, so it is made durable
// here (the fetcher does not fsync).
func (Files) Install(_ context.Context, _ manifest.Manifest, artifactPath string) (string, error) {
	f, err := os.Open(artifactPath)
	if err != nil {
		return "", fmt.Errorf("sync: artifact: %w", err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("sync: fsync artifact: %w", err)
	}
	if d, err := os.Open(filepath.Dir(artifactPath)); err == nil {
		_ = d.Sync() // the rename into artifacts/ must survive too
		d.Close()
	}
	return artifactPath, nil
}

// Remove implements Installer; the artifact file itself is collected by the agent.
func (Files) Remove(context.Context, string) error { return nil }
