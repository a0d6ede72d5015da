package pipeline

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sucursal/sucursal/internal/gopanic"
	"github.com/sucursal/sucursal/internal/guard"
)

// kindBomb is an input classifier whose Kind panics once armed: a bug in code the input check
// runs in its own goroutine, outside the classifier call the guard already recovers.
type kindBomb struct {
	*fakeClassifier
	armed atomic.Bool
}

func (k *kindBomb) Kind() guard.Kind {
	if k.armed.Load() {
		panic("kind of a broken classifier")
	}
	return guard.KindSafety
}

// A panic in the input check's goroutine is raised again in the request's goroutine (where the
// API answers 500 internal_error), with the check goroutine's stack, and nothing leaves the
// branch. Unrecovered in its own goroutine it would stop the process and every request in it.
func TestInputCheckPanicReachesTheRequestAndNothingLeaves(t *testing.T) {
	r := newRedactor(t)
	for _, sequential := range []bool{false, true} {
		for _, stream := range []bool{false, true} {
			k := &kindBomb{fakeClassifier: unsafeIf("robar")}
			g, _, _ := newTestGuard(t, guard.DefaultPolicy(), []guard.Classifier{k}, nil, nil)
			k.armed.Store(true)
			var exit reached
			h := guardedPath(r, g, sequential)(exit.terminal(3))
			var got any
			func() {
				defer func() { got = recover() }()
				_ = h.ServeChat(context.Background(), userRequest(stream, "Hola, ¿qué hora es?"), &recorder{})
			}()
			p, ok := got.(*gopanic.Panic)
			if !ok {
				t.Fatalf("stream=%v seq=%v: recovered %T %v, want *gopanic.Panic", stream, sequential, got, got)
			}
			if p.Value != "kind of a broken classifier" || !strings.Contains(string(p.Stack), "pipeline.startInputCheck") {
				t.Fatalf("carried %v with stack\n%s", p.Value, p.Stack)
			}
			if exit.called() {
				t.Fatalf("stream=%v seq=%v: the request left the branch after its input check panicked", stream, sequential)
			}
		}
	}
}
