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

func TestRepanicOnceAndDescribe(t *testing.T) {
	p := &Panic{Value: 7, Stack: []byte("goroutine 3 [running]:\nbackground()\n")}
	if kind, stack := Describe(p); kind != "int" || string(stack) != string(p.Stack) {
		t.Fatalf("Describe(carried) = %q, %q", kind, stack)
	}
	if kind, stack := Describe("a value holding text"); kind != "string" || !strings.Contains(string(stack), "TestRepanicOnceAndDescribe") {
		t.Fatalf("Describe(plain) = %q with a stack not of the caller", kind)
	}
	held := p
	func() {
		defer func() {
			if v := recover(); v != p {
				t.Fatalf("RepanicOnce raised %v", v)
			}
		}()
		RepanicOnce(&held)
	}()
	if held != nil {
		t.Fatal("RepanicOnce left the panic to be raised again")
	}
	RepanicOnce(&held) // nothing left: no panic
}
