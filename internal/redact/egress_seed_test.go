package redact

import (
	"context"
	"errors"
	"testing"
)

// The exit scan reads numbers in JSON documents (a card sent as a number in tool arguments) but
// not the request's own top-level seed, which clients fill with random 63-bit integers: one in
// ten looks like a card or a phone number, and refusing it would refuse sampled requests at random.
func TestExitScanSkipsOnlyTheTopLevelSeed(t *testing.T) {
	r := newTestRedactor(t, DefaultConfig())
	const card = "4532015112830366" // Luhn-valid, a Visa prefix
	for _, tc := range []struct {
		name, doc string
		blocked   bool
	}{
		{"top-level seed", `{"model":"m","seed":` + card + `,"messages":[{"role":"user","content":"hola"}]}`, false},
		{"top-level seed, spaced", `{ "seed" : ` + card + ` }`, false},
		{"seed last", `{"messages":[{"role":"user","content":"hola"}],"seed":` + card + `}`, false},
		{"another top-level number", `{"model":"m","max_completion_tokens":` + card + `}`, true},
		{"seed inside metadata", `{"model":"m","metadata":{"seed":` + card + `}}`, true},
		{"seed inside tool arguments", `{"messages":[{"role":"assistant","tool_calls":[{"function":{"arguments":{"seed":` + card + `}}}]}]}`, true},
		{"a value after the seed", `{"seed":1,"n":` + card + `}`, true},
		{"the word seed as a value", `{"note":"seed","x":` + card + `}`, true},
		{"card in a string next to a seed", `{"seed":7,"user":"` + card + `"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := r.ScanEgress(context.Background(), []byte(tc.doc))
			var be *EgressBlockedError
			if got := errors.As(err, &be); got != tc.blocked {
				t.Fatalf("blocked = %v (err %v), want %v", got, err, tc.blocked)
			}
		})
	}
}
