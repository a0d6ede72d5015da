package guard

import (
	"context"
	"errors"
)

// Kind says what a classifier looks for. Each implementation has exactly one kind.
type Kind string

const (
	KindInjection Kind = "injection" // prompt injection and jailbreaks (Prompt Guard style)
	KindSafety    Kind = "safety"    // prohibited content, S1–S14 (Llama Guard style)
)

func (k Kind) valid() bool { return k == KindInjection || k == KindSafety }

// Classifier scores one text. Implementations must be safe for concurrent use, must not log the
// text, and must return errors that contain neither the text nor the model's raw output.
type Classifier interface {
	// Name is a short, stable, low-cardinality name ("local-llamaguard", "dc"): a metrics label.
	Name() string
	// Kind is fixed for the lifetime of the classifier.
	Kind() Kind
	Classify(ctx context.Context, text string) (Verdict, error)
}

// Verdict is one classifier's opinion of one text.
type Verdict struct {
	Kind      Kind
	Malicious bool
	// Score is the probability that the text is malicious (injection) or unsafe (safety), in
	// [0,1]. Backends that give no probabilities report 1 or 0.
	Score      float64
	Categories []Category // safety only: the categories the model named
}

// Category is a hazard category: a Llama Guard code with its standard name, or the injection
// pseudo-category.
type Category struct {
	Code string // "S1".."S14", or "injection"
	Name string
}

// CategoryInjection is reported when the injection classifier drives a flag or a block.
var CategoryInjection = Category{Code: "injection", Name: "Prompt Injection"}

// safetyCategories is the MLCommons hazard taxonomy as used by Llama Guard 3 and 4.
var safetyCategories = [...]Category{
	{"S1", "Violent Crimes"},
	{"S2", "Non-Violent Crimes"},
	{"S3", "Sex-Related Crimes"},
	{"S4", "Child Sexual Exploitation"},
	{"S5", "Defamation"},
	{"S6", "Specialized Advice"},
	{"S7", "Privacy"},
	{"S8", "Intellectual Property"},
	{"S9", "Indiscriminate Weapons"},
	{"S10", "Hate"},
	{"S11", "Suicide & Self-Harm"},
	{"S12", "Sexual Content"},
	{"S13", "Elections"},
	{"S14", "Code Interpreter Abuse"},
}

// SafetyCategories returns the fourteen Llama Guard categories, S1 first.
func SafetyCategories() []Category { return append([]Category(nil), safetyCategories[:]...) }

// LookupCategory finds a safety category by its code ("S2").
func LookupCategory(code string) (Category, bool) {
	for _, c := range safetyCategories {
		if c.Code == code {
			return c, true
		}
	}
	return Category{}, false
}

var (
	// ErrMalformedOutput: the guard model answered something that is not a verdict. It is a
	// failure (handled by the fail mode), never "safe".
	ErrMalformedOutput = errors.New("guard: malformed classifier output")
	// ErrBackend: the model server could not be reached or answered with an error status.
	ErrBackend = errors.New("guard: classifier backend failed")
	// ErrClassifierPanicked: the classifier panicked (a bug, e.g. in reading an odd answer of its
	// model server). It is a failure like a dead server: the fail mode and the failover apply.
	ErrClassifierPanicked = errors.New("guard: classifier panicked")
	// ErrGuardUnavailable: the policy fails closed and a classifier could not give a verdict.
	// The pipeline answers 503 guard_unavailable.
	ErrGuardUnavailable = errors.New("guard: unavailable")
	// ErrBlocked: the policy blocks the text. Errors returned on a block are *BlockedError.
	ErrBlocked = errors.New("guard: content blocked")
)
