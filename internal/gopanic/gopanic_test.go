package gopanic

import (
	"strings"
	"testing"
)

func TestCarriesAPanicToTheWaitingGoroutine(t *testing.T) {
	var p *Panic
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer Recover(&p)
		var s []int
		_ = s[3] // a bug in a background check
	}()
	<-done
	if p == nil {
		t.Fatal("the panic was not caught")
	}
	if !strings.Contains(string(p.Stack), "gopanic.TestCarriesAPanicToTheWaitingGoroutine") {
		t.Fatalf("the stack is not the panicking goroutine's:\n%s", p.Stack)
	}
	if got := p.Error(); got != "panic in a background goroutine: runtime.boundsError" {
		t.Fatalf("Error() = %q", got)
	}
	defer func() {
		if v := recover(); v != p {
			t.Fatalf("Repanic raised %v, want the carried panic", v)
		}
	}()
	p.Repanic()
	t.Fatal("Repanic returned")
}

func TestNoPanicCarriesNothing(t *testing.T) {
	var p *Panic
	func() { defer Recover(&p) }()
	if p != nil {
		t.Fatalf("carried %v without a panic", p)
	}
	p.Repanic() // nil: no panic
}
