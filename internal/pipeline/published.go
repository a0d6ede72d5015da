package pipeline

import (
	"context"
	"errors"
	"sync"

	"github.com/sucursal/sucursal/internal/chat"
)

// RedactedTexts is a per-request promise: the Redact stage fills it with the redacted texts (in
// chat.Request.Texts order) or fails it; the guard's DC fallback waits on it.
type RedactedTexts struct {
	once  sync.Once
	done  chan struct{}
	texts []string
	err   error
}

// NewRedactedTexts returns an unresolved promise.
func NewRedactedTexts() *RedactedTexts { return &RedactedTexts{done: make(chan struct{})} }

// errNotRedacted fails the promise when the request ends before redaction finished.
var errNotRedacted = errors.New("pipeline: the request ended before its text was redacted")

// errRedactionFailed fails the promise without carrying the redactor's error, which the guard
// would otherwise wrap into its own.
var errRedactionFailed = errors.New("pipeline: redaction failed")

func (p *RedactedTexts) resolve(texts []string, err error) {
	if p == nil {
		return
	}
	p.once.Do(func() {
		p.texts, p.err = texts, err
		close(p.done)
	})
}

// fill publishes the request's texts as they are now (after redaction).
func (p *RedactedTexts) fill(c *chat.Request) {
	if p == nil {
		return
	}
	var ts []string
	_ = c.Texts(func(_ string, s *string) error {
		ts = append(ts, *s)
		return nil
	})
	p.resolve(ts, nil)
}

func (p *RedactedTexts) fail(err error) { p.resolve(nil, err) }

func (p *RedactedTexts) get(ctx context.Context, i int) (string, error) {
	select {
	case <-p.done:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if p.err != nil {
		return "", p.err
	}
	if i >= len(p.texts) {
		return "", errNotRedacted
	}
	return p.texts[i], nil
}
