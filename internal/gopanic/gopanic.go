// Package gopanic carries a panic out of a goroutine that a request started (a guard check in the
// background) into the goroutine that waits for it, so that it is handled where the request is —
// answered with an error, counted, logged — instead of stopping the whole process, which is what
// an unrecovered panic in any goroutine does in Go.
package gopanic

import (
	"fmt"
	"runtime/debug"
)

// Panic is a panic caught in another goroutine: its value and that goroutine's stack at the
// panic. Handlers must log the value's type and the stack, never the value: a value built by a
// stage may hold a piece of the prompt.
type Panic struct {
	Value any
	Stack []byte
}

// Error names the value's type only.
func (p *Panic) Error() string { return fmt.Sprintf("panic in a background goroutine: %T", p.Value) }

// Recover must be deferred directly by the goroutine's function (defer gopanic.Recover(&p)): it
// stores a panic of that goroutine in *dst, and nothing when there is none.
func Recover(dst **Panic) {
	if v := recover(); v != nil {
		*dst = &Panic{Value: v, Stack: debug.Stack()}
	}
}

// Repanic panics with p in the calling goroutine; nil does nothing.
func (p *Panic) Repanic() {
	if p != nil {
		panic(p)
	}
}

// RepanicOnce clears *p and panics with what it held, if anything: for an owner that may reach
// the point of raising it twice (a wait, then a deferred stop).
func RepanicOnce(p **Panic) {
	q := *p
	*p = nil
	q.Repanic()
}

// Describe is what a handler logs of a value it recovered: the Go type of the panic's value and
// the stack of the goroutine that panicked — the carried goroutine's for a *Panic, the calling
// goroutine's otherwise (call it inside the deferred function that recovered v).
func Describe(v any) (kind string, stack []byte) {
	if p, ok := v.(*Panic); ok {
		return fmt.Sprintf("%T", p.Value), p.Stack
	}
	return fmt.Sprintf("%T", v), debug.Stack()
}
