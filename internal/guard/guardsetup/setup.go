// Package guardsetup reads, checks and builds the guard from configuration: the `guard:` section
// of the edge-agent (local classifiers, policy, DC fallback) and the dc-gateway's guard model. It
// is the one place that knows every guard backend (ollamaguard, openaiguard, kserveguard,
// dcguard): adding a backend is a package under internal/guard and a case here.
//
// It must never log prompts or verdict details beyond what package guard logs.
package guardsetup

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/ollama/ollama/api"
	"github.com/prometheus/client_golang/prometheus"
	"go.yaml.in/yaml/v3"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/dcguard"
	"github.com/sucursal/sucursal/internal/guard/kserveguard"
	"github.com/sucursal/sucursal/internal/guard/ollamaguard"
	"github.com/sucursal/sucursal/internal/guard/openaiguard"
)

// Config is the `guard:` section (docs/GUARD.md). Off by default: a fresh NUC has no guard
// models, and turning the guard on without them would refuse (fail closed) every request.
type Config struct {
	Enabled bool `yaml:"enabled"`
	// Policy is an inline policy; PolicyFile a separate YAML file. At most one; neither means
	// guard.DefaultPolicy. Keys not given keep their defaults.
	Policy     *InlinePolicy `yaml:"policy"`
	PolicyFile string        `yaml:"policy_file"`
	// Classifiers are the local guard models.
	Classifiers []ClassifierConfig `yaml:"classifiers"`
	// DCFallback asks the dc-gateway's guard model (on redacted text only) when a local
	// classifier of DCFallbackKind fails.
	DCFallback     bool   `yaml:"dc_fallback"`
	DCFallbackKind string `yaml:"dc_fallback_kind"` // safety (default) or injection
	// Mode is concurrent (default: the check runs while the request is redacted) or sequential
	// (check, then redact: only for measuring what concurrency buys).
	Mode string `yaml:"mode"`
}

// ClassifierConfig is one local guard model.
type ClassifierConfig struct {
	Name string `yaml:"name"` // a metrics label: short and stable
	// Kind is safety (Llama Guard), injection-label (a model answering BENIGN/MALICIOUS) or
	// injection-score (a sequence classifier on KServe, e.g. Prompt Guard 2 on OVMS).
	Kind string `yaml:"kind"`
	// Stage is input, output or both (answers are judged as the assistant's turn).
	Stage     string `yaml:"stage"`
	Backend   string `yaml:"backend"` // ollama | openai | kserve
	URL       string `yaml:"url"`     // ollama: http://127.0.0.1:11434; openai: …/v1; kserve: http://host:port
	Model     string `yaml:"model"`
	APIKey    string `yaml:"api_key"`    // openai
	Logprobs  bool   `yaml:"logprobs"`   // openai: ask for log probabilities
	MaxTokens int    `yaml:"max_tokens"` // ollama, openai
	// KServe v2 (kind injection-score).
	Version        string `yaml:"version"`
	Input          string `yaml:"input"`
	Output         string `yaml:"output"`
	MaliciousIndex int    `yaml:"malicious_index"`
	Probabilities  bool   `yaml:"probabilities"`
}

// InlinePolicy is a guard policy written inside the agent's YAML, read like a policy file (over
// guard.DefaultPolicy, unknown keys refused). A bad policy is reported by Validate with the rest.
type InlinePolicy struct {
	guard.Policy
	err error
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (p *InlinePolicy) UnmarshalYAML(n *yaml.Node) error {
	b, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	p.Policy, p.err = guard.ParsePolicy(b)
	return nil
}

// ResolvePolicy resolves the configured policy.
func (g Config) ResolvePolicy() (guard.Policy, error) {
	switch {
	case g.Policy != nil && g.PolicyFile != "":
		return guard.Policy{}, errors.New("guard: set policy or policy_file, not both")
	case g.Policy != nil:
		if g.Policy.err != nil {
			return guard.Policy{}, g.Policy.err
		}
		return g.Policy.Policy, g.Policy.Validate()
	case g.PolicyFile != "":
		return guard.LoadPolicy(g.PolicyFile)
	}
	return guard.DefaultPolicy(), nil
}

// Validate lists every problem of an enabled guard section.
func (g Config) Validate() error {
	if !g.Enabled {
		return nil
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("guard: "+format, a...)) }
	if _, err := g.ResolvePolicy(); err != nil {
		errs = append(errs, err)
	}
	if len(g.Classifiers) == 0 && !g.DCFallback {
		bad("enabled with no classifiers and no dc_fallback: every check would fail")
	}
	names := map[string]bool{}
	for i, c := range g.Classifiers {
		at := fmt.Sprintf("classifiers[%d]", i)
		if c.Name == "" {
			bad("%s.name is required", at)
		} else if names[c.Name] {
			bad("%s.name %q is used twice", at, c.Name)
		}
		names[c.Name] = true
		switch c.Kind {
		case "safety", "injection-label":
			if c.Backend != "ollama" && c.Backend != "openai" {
				bad("%s.backend %q: kind %s needs ollama or openai", at, c.Backend, c.Kind)
			}
		case "injection-score":
			if c.Backend != "kserve" {
				bad("%s.backend %q: kind injection-score needs kserve", at, c.Backend)
			}
			if c.Input == "" {
				bad("%s.input (the model's input tensor name) is required for kserve", at)
			}
		default:
			bad("%s.kind %q: want safety, injection-label or injection-score", at, c.Kind)
		}
		switch c.Stage {
		case "input", "output", "both":
		default:
			bad("%s.stage %q: want input, output or both", at, c.Stage)
		}
		if u, err := url.Parse(c.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("%s.url %q is not an http(s) URL", at, c.URL)
		}
		if c.Model == "" {
			bad("%s.model is required", at)
		}
		if c.MaxTokens < 0 || c.MaliciousIndex < 0 {
			bad("%s: max_tokens and malicious_index must not be negative", at)
		}
	}
	switch g.DCFallbackKind {
	case "", "safety", "injection":
	default:
		bad("dc_fallback_kind %q: want safety or injection", g.DCFallbackKind)
	}
	switch g.Mode {
	case "", "concurrent", "sequential":
	default:
		bad("mode %q: want concurrent or sequential", g.Mode)
	}
	if g.Mode == "sequential" && g.DCFallback {
		bad("mode sequential cannot fail over to the DC: the redacted text does not exist yet when the guard needs it")
	}
	return errors.Join(errs...)
}

// Build makes the guard the pipeline runs, or nil when it is off. dc answers the DC fallback
// (nil when the section does not enable it).
func Build(g Config, dc dcguard.Asker, reg prometheus.Registerer, log *slog.Logger) (*guard.Guard, error) {
	if !g.Enabled {
		return nil, nil
	}
	p, err := g.ResolvePolicy()
	if err != nil {
		return nil, err
	}
	hc := &http.Client{}
	var input, output []guard.Classifier
	for _, c := range g.Classifiers {
		in, out, err := BuildClassifier(c, hc)
		if err != nil {
			return nil, fmt.Errorf("guard: classifier %q: %w", c.Name, err)
		}
		if c.Stage == "input" || c.Stage == "both" {
			input = append(input, in)
		}
		if c.Stage == "output" || c.Stage == "both" {
			output = append(output, out)
		}
	}
	var fallback guard.Classifier
	if g.DCFallback {
		kind := guard.KindSafety
		if g.DCFallbackKind == "injection" {
			kind = guard.KindInjection
		}
		if dc == nil {
			return nil, errors.New("guard: dc_fallback needs a datacenter client")
		}
		fallback = dcguard.New(dc, kind)
	}
	return guard.New(p, input, output, fallback, reg, log)
}

// BuildClassifier returns the classifier for prompts and the one for answers (a safety model
// judges the user's turn on the way in and the assistant's on the way out).
func BuildClassifier(c ClassifierConfig, hc *http.Client) (in, out guard.Classifier, err error) {
	var gen guard.Generator
	switch c.Backend {
	case "ollama":
		u, err := url.Parse(c.URL)
		if err != nil {
			return nil, nil, err
		}
		gen = ollamaguard.New(api.NewClient(u, hc), c.Model, ollamaguard.Options{MaxTokens: c.MaxTokens})
	case "openai":
		if gen, err = openaiguard.New(openaiguard.Options{BaseURL: c.URL, Model: c.Model, APIKey: c.APIKey,
			MaxTokens: c.MaxTokens, Logprobs: c.Logprobs, Client: hc}); err != nil {
			return nil, nil, err
		}
	case "kserve":
		s, err := kserveguard.New(kserveguard.Options{BaseURL: c.URL, Model: c.Model, Version: c.Version, Input: c.Input,
			Output: c.Output, MaliciousIndex: c.MaliciousIndex, Probabilities: c.Probabilities, Client: hc})
		if err != nil {
			return nil, nil, err
		}
		cl := guard.NewScoreInjectionClassifier(c.Name, s)
		return cl, cl, nil
	}
	switch c.Kind {
	case "safety":
		return guard.NewSafetyClassifier(c.Name, gen, guard.RoleUser), guard.NewSafetyClassifier(c.Name, gen, guard.RoleAgent), nil
	case "injection-label":
		cl := guard.NewLabelInjectionClassifier(c.Name, gen)
		return cl, cl, nil
	}
	return nil, nil, fmt.Errorf("kind %q with backend %q", c.Kind, c.Backend)
}

// DCClassifier is the dc-gateway's guard model: a model on an OpenAI-compatible server (usually
// the gateway's own target) that edges ask when their local guard fails. kind is safety (Llama
// Guard: safe / unsafe + categories, the default) or injection (a model answering BENIGN /
// MALICIOUS). Edges send redacted text only.
func DCClassifier(url, model, apiKey, kind string, hc *http.Client) (guard.Classifier, error) {
	c := ClassifierConfig{Name: "dc-" + model, Kind: "safety", Stage: "input", Backend: "openai", URL: url, Model: model, APIKey: apiKey}
	switch kind {
	case "", "safety":
	case "injection":
		c.Kind = "injection-label"
	default:
		return nil, fmt.Errorf("gateway guard: kind %q: want safety or injection", kind)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	in, _, err := BuildClassifier(c, hc)
	if err != nil {
		return nil, fmt.Errorf("gateway guard: %w", err)
	}
	return in, nil
}
