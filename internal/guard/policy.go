package guard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"time"

	"go.yaml.in/yaml/v3"
)

// Action is what the policy does with a text. They are ordered: block beats flag beats allow.
type Action string

const (
	ActionAllow Action = "allow"
	ActionFlag  Action = "flag" // pass, but tell the caller (header) and count it
	ActionBlock Action = "block"
)

func (a Action) rank() int {
	switch a {
	case ActionFlag:
		return 1
	case ActionBlock:
		return 2
	}
	return 0
}

func (a Action) valid() bool { return a == ActionAllow || a == ActionFlag || a == ActionBlock }

// FailMode says what happens when a classifier gives no verdict (down, timed out, malformed).
type FailMode string

const (
	FailClosed FailMode = "closed" // ErrGuardUnavailable: the pipeline answers 503 guard_unavailable
	FailOpen   FailMode = "open"   // pass, with Decision.Degraded set (a header and a metric)
)

// Sources of text a request carries; the policy's Scan map is keyed by them.
const (
	SourceUser     = "user"
	SourceTool     = "tool"     // tool results: indirect injection
	SourceDocument = "document" // retrieved documents: indirect injection
	SourceSystem   = "system"
)

// Policy is the guard's configuration, loaded from YAML. Every key is described in docs/GUARD.md.
type Policy struct {
	FailMode FailMode `yaml:"fail_mode"`
	// Timeout is the latency budget of one input check, all classifiers and windows together.
	Timeout time.Duration `yaml:"timeout"`
	// FallbackTimeout is the budget of the DC guard call made after a local failure.
	FallbackTimeout time.Duration `yaml:"fallback_timeout"`
	// MaxConcurrency bounds the classifier calls one check has in flight.
	MaxConcurrency int `yaml:"max_concurrency"`
	// OnBlock is "error" (400 content_policy_violation) or "refusal" (an assistant message).
	OnBlock        string `yaml:"on_block"`
	RefusalMessage string `yaml:"refusal_message"`
	// Scan maps a text's source to the classifier kinds run on it; a source not listed is not
	// scanned.
	Scan      map[string][]Kind `yaml:"scan"`
	Injection InjectionPolicy   `yaml:"injection"`
	Safety    SafetyPolicy      `yaml:"safety"`
	Output    OutputPolicy      `yaml:"output"`
}

// InjectionPolicy turns an injection score into an action.
type InjectionPolicy struct {
	FlagThreshold  float64 `yaml:"flag_threshold"`
	BlockThreshold float64 `yaml:"block_threshold"`
	// WindowTokens is the model's context (Prompt Guard 2: 512); longer texts are scored in
	// windows and the worst window wins. WindowOverlap tokens are shared by neighbouring windows
	// so that an attack on a boundary is seen whole.
	WindowTokens  int `yaml:"window_tokens"`
	WindowOverlap int `yaml:"window_overlap"`
}

// SafetyPolicy maps Llama Guard categories to actions.
type SafetyPolicy struct {
	Default    Action            `yaml:"default"`    // for categories not listed
	Categories map[string]Action `yaml:"categories"` // "S1".."S14" → action
	// WindowTokens 0 sends the whole text in one call.
	WindowTokens  int `yaml:"window_tokens"`
	WindowOverlap int `yaml:"window_overlap"`
}

// OutputPolicy configures the streaming output guard.
type OutputPolicy struct {
	Enabled bool `yaml:"enabled"`
	// CheckEvery is how many bytes of new answer text trigger a check while streaming.
	CheckEvery int `yaml:"check_every"`
	// Window is how many trailing bytes of the answer each check sees (≥ CheckEvery, so every
	// byte is checked with some context before it).
	Window  int           `yaml:"window"`
	Timeout time.Duration `yaml:"timeout"`
	// Async runs streaming checks in the background so the answer keeps flowing while the guard
	// model works (on a NUC's CPU a Llama Guard check takes seconds); a block then cuts the stream
	// at the next delta. The check at Close is always waited for. Off: Write blocks while a check
	// runs.
	Async bool `yaml:"async"`
	// FailMode overrides the top-level fail mode for answers; empty inherits it.
	FailMode FailMode `yaml:"fail_mode"`
}

// DefaultPolicy fails closed, scans user messages for both kinds and tool results and documents
// for injection, and blocks every safety category except three that a bank, clinic or law office
// meets in ordinary work (specialized advice, privacy, intellectual property), which it flags.
func DefaultPolicy() Policy {
	return Policy{
		FailMode:        FailClosed,
		Timeout:         3 * time.Second,
		FallbackTimeout: 3 * time.Second,
		MaxConcurrency:  4,
		OnBlock:         "error",
		RefusalMessage:  "I can't help with that request.",
		Scan: map[string][]Kind{
			SourceUser:     {KindInjection, KindSafety},
			SourceTool:     {KindInjection},
			SourceDocument: {KindInjection},
		},
		Injection: InjectionPolicy{FlagThreshold: 0.5, BlockThreshold: 0.9, WindowTokens: 512, WindowOverlap: 64},
		Safety: SafetyPolicy{
			Default:    ActionBlock,
			Categories: map[string]Action{"S6": ActionFlag, "S7": ActionFlag, "S8": ActionFlag},
			// Well inside Ollama's default 4096-token context, with Llama Guard's ~400-token prompt.
			WindowTokens: 2048, WindowOverlap: 128,
		},
		Output: OutputPolicy{Enabled: true, CheckEvery: 512, Window: 2048, Timeout: 5 * time.Second, Async: true},
	}
}

// LoadPolicy reads a YAML policy over DefaultPolicy (keys not given keep their default; maps merge)
// and validates it. Unknown keys are errors, so a typo cannot silently weaken the policy.
func LoadPolicy(path string) (Policy, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Policy{}, fmt.Errorf("guard policy: %w", err)
	}
	return ParsePolicy(b)
}

// ParsePolicy is LoadPolicy on bytes.
func ParsePolicy(b []byte) (Policy, error) {
	p := DefaultPolicy()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil && !errors.Is(err, io.EOF) {
		return Policy{}, fmt.Errorf("guard policy: %w", err)
	}
	if err := p.Validate(); err != nil {
		return Policy{}, err
	}
	return p, nil
}

// Validate lists every problem at once.
func (p Policy) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("guard policy: "+format, a...)) }
	if p.FailMode != FailClosed && p.FailMode != FailOpen {
		bad("fail_mode %q: want closed or open", p.FailMode)
	}
	if p.Timeout <= 0 {
		bad("timeout must be positive")
	}
	if p.FallbackTimeout < 0 {
		bad("fallback_timeout must not be negative")
	}
	if p.MaxConcurrency < 1 {
		bad("max_concurrency must be at least 1")
	}
	switch p.OnBlock {
	case "error":
	case "refusal":
		if p.RefusalMessage == "" {
			bad("on_block refusal needs a refusal_message")
		}
	default:
		bad("on_block %q: want error or refusal", p.OnBlock)
	}
	srcs := make([]string, 0, len(p.Scan))
	for s := range p.Scan {
		srcs = append(srcs, s)
	}
	sort.Strings(srcs)
	for _, s := range srcs {
		switch s {
		case SourceUser, SourceTool, SourceDocument, SourceSystem:
		default:
			bad("scan: unknown source %q (want user, tool, document, system)", s)
		}
		for _, k := range p.Scan[s] {
			if !k.valid() {
				bad("scan.%s: unknown classifier kind %q (want injection, safety)", s, k)
			}
		}
	}
	in := p.Injection
	if !(in.FlagThreshold > 0 && in.FlagThreshold <= 1) || !(in.BlockThreshold > 0 && in.BlockThreshold <= 1) {
		bad("injection thresholds must be in (0,1]")
	}
	if in.FlagThreshold > in.BlockThreshold {
		bad("injection.flag_threshold must not exceed block_threshold")
	}
	if in.WindowTokens < minWindowTokens {
		bad("injection.window_tokens must be at least %d", minWindowTokens)
	}
	validWindow(bad, "injection", in.WindowTokens, in.WindowOverlap)
	if !p.Safety.Default.valid() {
		bad("safety.default %q: want allow, flag or block", p.Safety.Default)
	}
	codes := make([]string, 0, len(p.Safety.Categories))
	for c := range p.Safety.Categories {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		if _, ok := LookupCategory(c); !ok {
			bad("safety.categories: unknown category %q (want S1..S14)", c)
		}
		if a := p.Safety.Categories[c]; !a.valid() {
			bad("safety.categories.%s %q: want allow, flag or block", c, a)
		}
	}
	if p.Safety.WindowTokens != 0 && p.Safety.WindowTokens < minWindowTokens {
		bad("safety.window_tokens must be 0 (whole text) or at least %d", minWindowTokens)
	}
	validWindow(bad, "safety", p.Safety.WindowTokens, p.Safety.WindowOverlap)
	o := p.Output
	if o.Enabled {
		if o.CheckEvery < 1 {
			bad("output.check_every must be positive")
		}
		if o.Window < o.CheckEvery {
			bad("output.window must be at least output.check_every")
		}
		if o.Timeout <= 0 {
			bad("output.timeout must be positive")
		}
	}
	if o.FailMode != "" && o.FailMode != FailClosed && o.FailMode != FailOpen {
		bad("output.fail_mode %q: want closed, open or empty", o.FailMode)
	}
	return errors.Join(errs...)
}

func validWindow(bad func(string, ...any), key string, tokens, overlap int) {
	if overlap < 0 || (tokens > 0 && overlap > tokens/2) {
		bad("%s.window_overlap must be between 0 and half of window_tokens", key)
	}
}

// safetyAction is the action for one category.
func (p Policy) safetyAction(code string) Action {
	if a, ok := p.Safety.Categories[code]; ok {
		return a
	}
	return p.Safety.Default
}

// injectionAction is the action for one injection score.
func (p Policy) injectionAction(score float64) Action {
	switch {
	case score >= p.Injection.BlockThreshold:
		return ActionBlock
	case score >= p.Injection.FlagThreshold:
		return ActionFlag
	}
	return ActionAllow
}

func (p Policy) outputFailMode() FailMode {
	if p.Output.FailMode != "" {
		return p.Output.FailMode
	}
	return p.FailMode
}

func (p Policy) clone() Policy {
	p.Scan = maps.Clone(p.Scan)
	for s, ks := range p.Scan {
		p.Scan[s] = slices.Clone(ks)
	}
	p.Safety.Categories = maps.Clone(p.Safety.Categories)
	return p
}
