package ollamatest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Version is the Ollama release the project builds (scripts/build-ollama.sh) and tests against.
const Version = "0.17.4"

// BinaryEnv overrides where the ollama binary is.
const BinaryEnv = "SUCURSAL_OLLAMA_BIN"

// ErrNoBinary is returned (wrapped) by Binary when no ollama binary is found.
var ErrNoBinary = errors.New("ollamatest: ollama binary not found (run `make deps`, which runs scripts/build-ollama.sh)")

// Binary finds the ollama binary: $SUCURSAL_OLLAMA_BIN, else
// <repo root>/.cache/ollama-v0.17.4/bin/ollama, where the repo root is the nearest directory with a
// go.mod, walking up from the working directory.
func Binary() (string, error) {
	if p := os.Getenv(BinaryEnv); p != "" {
		if err := executable(p); err != nil {
			return "", fmt.Errorf("%w: $%s=%s: %w", ErrNoBinary, BinaryEnv, p, err)
		}
		return p, nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoBinary, err)
	}
	p := filepath.Join(root, ".cache", "ollama-v"+Version, "bin", "ollama")
	if err := executable(p); err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoBinary, err)
	}
	return p, nil
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", p)
	}
	return nil
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
