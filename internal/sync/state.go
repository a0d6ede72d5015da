package sync

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sucursal/sucursal/internal/manifest"
)

// Model is an installed model version as the pipeline sees it.
type Model struct {
	Role    string `json:"role"`
	Version string `json:"version"`
	Runtime string `json:"runtime"`
	Digest  string `json:"digest"`
	// Ref addresses the model in its runtime: an Ollama model name, or a file path.
	Ref                  string            `json:"ref"`
	TokenizerFingerprint string            `json:"tokenizer_fingerprint,omitempty"`
	Manifest             manifest.Manifest `json:"manifest"`
}

func modelOf(m manifest.Manifest, ref string) Model {
	return Model{Role: m.Role, Version: m.Version, Runtime: m.Runtime, Digest: m.Digest, Ref: ref,
		TokenizerFingerprint: m.TokenizerFingerprint, Manifest: m}
}

type roleInstall struct {
	Current  *Model `json:"current,omitempty"`
	Previous *Model `json:"previous,omitempty"`
}

// installed is the agent's durable record of what runs, so a restart neither reinstalls nor
// forgets which version is the rollback target.
type installed struct {
	Roles map[string]*roleInstall `json:"roles"`
}

func statePath(dataDir string) string { return filepath.Join(dataDir, "installed.json") }

func loadInstalled(dataDir string) (installed, error) {
	st := installed{Roles: map[string]*roleInstall{}}
	data, err := os.ReadFile(statePath(dataDir))
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("sync: read installed state: %w", err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, fmt.Errorf("sync: installed state: %w", err)
	}
	if st.Roles == nil {
		st.Roles = map[string]*roleInstall{}
	}
	return st, nil
}

func saveInstalled(dataDir string, st installed) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("sync: installed state: %w", err)
	}
	return writeFileAtomic(statePath(dataDir), data)
}
