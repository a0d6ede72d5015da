package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultPolicyIsValid(t *testing.T) {
	if err := DefaultPolicy().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestLoadPolicyExample(t *testing.T) {
	p, err := LoadPolicy(filepath.Join("..", "..", "testdata", "guard", "policy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if p.FailMode != FailClosed || p.Timeout != 1500*time.Millisecond || p.OnBlock != "refusal" ||
		p.Injection.BlockThreshold != 0.85 || p.Output.FailMode != FailOpen || p.Output.CheckEvery != 400 || !p.Output.Async {
		t.Errorf("policy not read as written: %+v", p)
	}
	if p.safetyAction("S6") != ActionAllow || p.safetyAction("S7") != ActionFlag || p.safetyAction("S1") != ActionBlock {
		t.Errorf("category actions wrong: S6 %s S7 %s S1 %s", p.safetyAction("S6"), p.safetyAction("S7"), p.safetyAction("S1"))
	}
	if len(p.Scan[SourceSystem]) != 0 || len(p.Scan[SourceUser]) != 2 {
		t.Errorf("scan = %v", p.Scan)
	}
	if p.outputFailMode() != FailOpen {
		t.Errorf("output fail mode = %s", p.outputFailMode())
	}
}

func TestParsePolicyKeepsDefaultsAndMergesMaps(t *testing.T) {
	p, err := ParsePolicy([]byte("safety:\n  categories:\n    S1: flag\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultPolicy()
	if p.Timeout != d.Timeout || p.FailMode != d.FailMode || p.Injection != d.Injection {
		t.Errorf("unset keys lost their defaults")
	}
	if p.safetyAction("S1") != ActionFlag || p.safetyAction("S6") != d.safetyAction("S6") {
		t.Errorf("categories did not merge over the defaults")
	}
	if p.outputFailMode() != p.FailMode {
		t.Errorf("empty output.fail_mode must inherit")
	}
	if _, err := ParsePolicy(nil); err != nil {
		t.Errorf("empty policy file: %v", err)
	}
}

func TestPolicyErrorsListEveryProblem(t *testing.T) {
	bad := `
fail_mode: sideways
timeout: 0s
max_concurrency: 0
on_block: refusal
refusal_message: ""
scan: {chat: [safety], user: [toxicity]}
injection: {flag_threshold: 0.95, block_threshold: 0.9, window_tokens: 8, window_overlap: 7}
safety: {default: maybe, categories: {S15: block, S2: drop}, window_tokens: 3}
output: {enabled: true, check_every: 100, window: 50, timeout: 0s, fail_mode: ajar}
`
	_, err := ParsePolicy([]byte(bad))
	if err == nil {
		t.Fatal("invalid policy accepted")
	}
	for _, want := range []string{"fail_mode", "timeout", "max_concurrency", "refusal_message", `"chat"`, `"toxicity"`,
		"must not exceed", "injection.window_tokens", "injection.window_overlap", "safety.default", `"S15"`, "S2",
		"safety.window_tokens", "output.window", "output.timeout", "output.fail_mode"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %s:\n%v", want, err)
		}
	}
}

func TestParsePolicyRejectsUnknownKeys(t *testing.T) {
	for _, doc := range []string{"fail_mod: open\n", "safety:\n  categorys: {}\n", "output:\n  enable: false\n"} {
		if _, err := ParsePolicy([]byte(doc)); err == nil {
			t.Errorf("%q accepted: a typo must not silently keep a default", doc)
		}
	}
}

func TestLoadPolicyMissingFile(t *testing.T) {
	if _, err := LoadPolicy(filepath.Join(t.TempDir(), "none.yaml")); !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("err = %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

func TestInjectionAction(t *testing.T) {
	p := DefaultPolicy()
	p.Injection.FlagThreshold, p.Injection.BlockThreshold = 0.4, 0.8
	tests := []struct {
		score float64
		want  Action
	}{{0, ActionAllow}, {0.3999, ActionAllow}, {0.4, ActionFlag}, {0.7999, ActionFlag}, {0.8, ActionBlock}, {1, ActionBlock}}
	for _, tt := range tests {
		if got := p.injectionAction(tt.score); got != tt.want {
			t.Errorf("score %v: %s, want %s", tt.score, got, tt.want)
		}
	}
}

func TestGuardKeepsItsOwnCopyOfThePolicy(t *testing.T) {
	p := DefaultPolicy()
	h := newHarness(t, p, nil, nil, nil)
	p.Safety.Categories["S1"] = ActionAllow
	p.Scan[SourceUser][0] = "changed"
	got := h.g.Policy()
	if got.safetyAction("S1") != ActionBlock || got.Scan[SourceUser][0] != KindInjection {
		t.Fatal("the caller's later edits reached the guard's policy")
	}
	got.Safety.Categories["S2"] = ActionAllow
	if h.g.Policy().safetyAction("S2") != ActionBlock {
		t.Fatal("Policy() exposes the guard's maps")
	}
}
