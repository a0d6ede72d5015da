package redact

import (
	"testing"

	"go.uber.org/goleak"
)

// regexp2's match-timeout clock is a package-level goroutine that stops by itself about a
// second after the last match with a timeout; it is not ours to wait for.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/dlclark/regexp2.runClock"),
		goleak.IgnoreAnyFunction("github.com/dlclark/regexp2.runClock"))
}
