package redact

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
	"go.yaml.in/yaml/v3"
)

// Checksum-failure policies: what a recognizer does with a match whose check digit is wrong.
// A mistyped DNI is still somebody's DNI, so the default lowers the score instead of dropping
// the match; a context word ("DNI", "tarjeta"…) then still lifts it over the threshold.
const (
	ChecksumRedact = "redact" // keep the full score
	ChecksumLower  = "lower"  // subtract ChecksumPenalty
	ChecksumIgnore = "ignore" // drop the match
)

// NER modes.
const (
	NEROff              = "off"               // gazetteer only, never call a backend
	NERFallbackDegraded = "fallback-degraded" // backend down: gazetteer only, session marked degraded
	NERRequired         = "required"          // backend down: refuse with ErrNERUnavailable
)

// End-of-stream policies for a placeholder that the model left unfinished.
const (
	EndEmit      = "emit"      // forward the partial text as it is (it holds no value)
	EndDrop      = "drop"      // discard it
	EndRehydrate = "rehydrate" // if it names exactly one vault entry, put that value back
)

// Config is the redaction policy. Every field has a YAML key; see docs/REDACTION.md.
type Config struct {
	// Threshold is the minimum score for a candidate to be redacted; Thresholds overrides it
	// per entity type.
	Threshold  float64            `yaml:"threshold"`
	Thresholds map[string]float64 `yaml:"thresholds"`
	// ChecksumFailure is redact|lower|ignore; ChecksumPenalty is what "lower" subtracts.
	ChecksumFailure string  `yaml:"checksum_failure"`
	ChecksumPenalty float64 `yaml:"checksum_penalty"`
	// ContextWindow is how many bytes either side of a match are searched for context words;
	// ContextBoost is added to the score when one is found. ContextWords adds words per type
	// to the built-in Spanish and English lists.
	ContextWindow int                 `yaml:"context_window"`
	ContextBoost  float64             `yaml:"context_boost"`
	ContextWords  map[string][]string `yaml:"context_words"`
	// Allow lists text that is never redacted (case-insensitive), e.g. the bank's own name.
	Allow []string `yaml:"allow"`
	// Deny lists text that is always redacted (case-insensitive) with the given type.
	Deny []DenyEntry `yaml:"deny"`
	// Custom adds recognizers.
	Custom []CustomRecognizer `yaml:"custom"`
	// Disable turns built-in recognizers off by entity type (e.g. PASSPORT).
	Disable []string `yaml:"disable"`
	// Names turns the gazetteer name detector on.
	Names bool `yaml:"names"`
	// MatchTimeout bounds every regexp2 match; a timeout refuses the text.
	MatchTimeout time.Duration `yaml:"match_timeout"`
	// NER configures the model-server backend.
	NER NERConfig `yaml:"ner"`
	// EndOfStream is emit|drop|rehydrate.
	EndOfStream string `yaml:"end_of_stream"`
	// SessionTTL is the default lifetime of a vault when NewSession gets 0.
	SessionTTL time.Duration `yaml:"session_ttl"`
}

// DenyEntry is a literal that is always redacted.
type DenyEntry struct {
	Value string `yaml:"value"`
	Type  string `yaml:"type"`
}

// CustomRecognizer is a recognizer defined in YAML.
type CustomRecognizer struct {
	Name         string   `yaml:"name"`
	Type         string   `yaml:"type"`
	Pattern      string   `yaml:"pattern"`   // regexp2 syntax (.NET flavour)
	Validator    string   `yaml:"validator"` // "" or one of Validators()
	ContextWords []string `yaml:"context_words"`
	Score        float64  `yaml:"score"`
}

// NERConfig selects and bounds the NER backend. Backend-specific fields are read by package
// redact/ner; this package only uses Mode and Timeout.
type NERConfig struct {
	// Mode left out of a YAML ner section that names a url and a model is fallback-degraded
	// (see UnmarshalYAML); left out otherwise, it keeps its default, off.
	Mode    string        `yaml:"mode"`
	Timeout time.Duration `yaml:"timeout"`
	Backend string        `yaml:"backend"` // ollama | kserve | openai
	URL     string        `yaml:"url"`     // openai: the API root, e.g. http://127.0.0.1:8080/v1
	Model   string        `yaml:"model"`
	APIKey  string        `yaml:"api_key"` // openai: sent as a bearer token when set
	// Labels are the token-classification labels of a KServe model, in logit order (BIO).
	Labels []string `yaml:"labels"`
}

// UnmarshalYAML reads a ner section. The model is a second layer, on by default where the branch
// has one: a section with a url and a model and no mode gets fallback-degraded — rules always
// run, the model adds spans, a dead model degrades the session and is never replaced by anything
// off the NUC. An explicit mode (off, required) is kept. Unknown keys are errors, as elsewhere.
func (n *NERConfig) UnmarshalYAML(node *yaml.Node) error {
	type fields NERConfig // without this method
	if node.Kind == yaml.MappingNode {
		known := map[string]bool{}
		for _, f := range reflect.VisibleFields(reflect.TypeFor[fields]()) {
			known[strings.Split(f.Tag.Get("yaml"), ",")[0]] = true
		}
		var unknown []string
		for i := 0; i+1 < len(node.Content); i += 2 {
			if k := node.Content[i]; !known[k.Value] {
				unknown = append(unknown, fmt.Sprintf("line %d: field %s not found in type redact.NERConfig", k.Line, k.Value))
			}
		}
		if len(unknown) > 0 {
			return &yaml.TypeError{Errors: unknown}
		}
	}
	f := fields(*n)
	f.Mode = ""
	if err := node.Decode(&f); err != nil {
		return err
	}
	if f.Mode == "" {
		f.Mode = n.Mode
		if f.URL != "" && f.Model != "" {
			f.Mode = NERFallbackDegraded
		}
	}
	*n = NERConfig(f)
	return nil
}

// DefaultConfig is a policy suitable for a Spanish branch with no NER backend.
func DefaultConfig() Config {
	return Config{
		Threshold:       0.5,
		ChecksumFailure: ChecksumLower,
		ChecksumPenalty: 0.3,
		ContextWindow:   40,
		ContextBoost:    0.35,
		Names:           true,
		MatchTimeout:    time.Second,
		NER:             NERConfig{Mode: NEROff, Timeout: 2 * time.Second},
		EndOfStream:     EndRehydrate,
		SessionTTL:      10 * time.Minute,
	}
}

// LoadConfig reads a YAML policy over DefaultConfig and validates it. Unknown keys are errors:
// a misspelt key in a privacy policy must not be silently ignored.
func LoadConfig(path string) (Config, error) {
	cfg := DefaultConfig()
	b, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("redact: read config: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, fmt.Errorf("redact: parse config %s: %w", path, err)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, err
	}
	return cfg, nil
}

var typeName = regexp.MustCompile(`^[A-Z][A-Z0-9]{0,23}$`)

// Validate lists every problem at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	score := func(name string, v float64) {
		if v < 0 || v > 1 {
			bad("%s must be within [0,1], got %v", name, v)
		}
	}
	score("threshold", c.Threshold)
	for t, v := range c.Thresholds {
		if !typeName.MatchString(t) {
			bad("thresholds: bad entity type %q", t)
		}
		score("thresholds."+t, v)
	}
	switch c.ChecksumFailure {
	case ChecksumRedact, ChecksumLower, ChecksumIgnore:
	default:
		bad("checksum_failure must be redact|lower|ignore, got %q", c.ChecksumFailure)
	}
	score("checksum_penalty", c.ChecksumPenalty)
	if c.ContextWindow < 0 || c.ContextWindow > 400 {
		bad("context_window must be within [0,400] bytes, got %d", c.ContextWindow)
	}
	score("context_boost", c.ContextBoost)
	for t := range c.ContextWords {
		if !typeName.MatchString(t) {
			bad("context_words: bad entity type %q", t)
		}
	}
	for i, a := range c.Allow {
		if a == "" {
			bad("allow[%d] is empty", i)
		}
	}
	for i, d := range c.Deny {
		if d.Value == "" {
			bad("deny[%d].value is empty", i)
		}
		if !typeName.MatchString(d.Type) {
			bad("deny[%d].type %q must match %s", i, d.Type, typeName)
		}
	}
	seen := map[string]bool{}
	for i, r := range c.Custom {
		if r.Name == "" || seen[r.Name] {
			bad("custom[%d].name %q must be set and unique", i, r.Name)
		}
		seen[r.Name] = true
		if !typeName.MatchString(r.Type) || r.Type == TypeLiteral {
			bad("custom[%d].type %q must match %s and not be %s", i, r.Type, typeName, TypeLiteral)
		}
		if _, err := regexp2.Compile(r.Pattern, regexp2.None); r.Pattern == "" || err != nil {
			bad("custom[%d].pattern does not compile: %v", i, err)
		}
		if r.Validator != "" && validators[r.Validator] == nil {
			bad("custom[%d].validator %q is not one of %v", i, r.Validator, Validators())
		}
		score(fmt.Sprintf("custom[%d].score", i), r.Score)
	}
	for i, t := range c.Disable {
		if !typeName.MatchString(t) {
			bad("disable[%d]: bad entity type %q", i, t)
		}
	}
	if c.MatchTimeout <= 0 || c.MatchTimeout > 10*time.Second {
		bad("match_timeout must be within (0,10s], got %v", c.MatchTimeout)
	}
	switch c.NER.Mode {
	case NEROff, NERFallbackDegraded, NERRequired:
	default:
		bad("ner.mode must be off|fallback-degraded|required, got %q", c.NER.Mode)
	}
	if c.NER.Mode != NEROff {
		if c.NER.Timeout <= 0 {
			bad("ner.timeout must be positive when ner.mode is %s", c.NER.Mode)
		}
		if c.NER.Backend != "ollama" && c.NER.Backend != "kserve" && c.NER.Backend != "openai" {
			bad("ner.backend must be ollama, kserve or openai when ner.mode is %s, got %q", c.NER.Mode, c.NER.Backend)
		}
		if c.NER.URL == "" || c.NER.Model == "" {
			bad("ner.url and ner.model are required when ner.mode is %s", c.NER.Mode)
		}
		if u, err := url.Parse(c.NER.URL); c.NER.URL != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			bad("ner.url %q must be an absolute http(s) URL, e.g. http://127.0.0.1:8080/v1", c.NER.URL)
		}
		if c.NER.Backend == "kserve" && len(c.NER.Labels) == 0 {
			bad("ner.labels (the model's BIO labels in logit order) are required for ner.backend kserve")
		}
	}
	switch c.EndOfStream {
	case EndEmit, EndDrop, EndRehydrate:
	default:
		bad("end_of_stream must be emit|drop|rehydrate, got %q", c.EndOfStream)
	}
	if c.SessionTTL <= 0 {
		bad("session_ttl must be positive, got %v", c.SessionTTL)
	}
	if len(errs) > 0 {
		return fmt.Errorf("redact: invalid config: %w", errors.Join(errs...))
	}
	return nil
}
