package ner

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/ollama/ollama/api"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/redact"
)

// New builds the backend cfg names (ollama, kserve or openai). It returns nil and no error when
// the NER mode is off.
func New(cfg redact.NERConfig, hc *http.Client) (redact.NER, error) {
	if cfg.Mode == redact.NEROff || cfg.Mode == "" {
		return nil, nil
	}
	if hc == nil {
		hc = &http.Client{}
	}
	u, err := url.Parse(cfg.URL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("ner: url %q must be absolute, e.g. http://127.0.0.1:11434", cfg.URL)
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("ner: model is required")
	}
	switch cfg.Backend {
	case "ollama":
		return NewOllama(api.NewClient(u, hc), cfg.Model), nil
	case "kserve":
		if len(cfg.Labels) == 0 {
			return nil, fmt.Errorf("ner: kserve needs labels (the model's BIO labels in logit order)")
		}
		return &KServe{URL: cfg.URL, Model: cfg.Model, Labels: cfg.Labels, HTTP: hc}, nil
	case "openai":
		c := openaicompat.New(cfg.URL, cfg.APIKey)
		c.HTTP = hc
		return &OpenAI{Client: c, Model: cfg.Model}, nil
	}
	return nil, fmt.Errorf("ner: backend %q is not ollama, kserve or openai", cfg.Backend)
}
