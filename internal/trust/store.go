package trust

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
)

// Store holds the list a gateway enforces. It accepts only lists signed by the fleet CA and never
// goes back to a lower version, and it keeps the last accepted list in a cache file so that a
// gateway restarted while NATS is unreachable starts from it.
type Store struct {
	ca    *x509.Certificate
	cache string // "" = no cache file

	mu       sync.Mutex // serialises Apply
	cur      atomic.Pointer[List]
	onChange func(*List)
}

// NewStore returns an empty store (no edge admitted until a list arrives). cache may be "".
func NewStore(ca *x509.Certificate, cache string) *Store {
	return &Store{ca: ca, cache: cache}
}

// OnChange registers the one function told about every list the store accepts.
func (s *Store) OnChange(fn func(*List)) {
	s.mu.Lock()
	s.onChange = fn
	s.mu.Unlock()
}

// Current is the list in force, nil before the first.
func (s *Store) Current() *List { return s.cur.Load() }

// LoadCache starts the store from its cache file. A missing file is not an error (found false).
func (s *Store) LoadCache() (found bool, err error) {
	if s.cache == "" {
		return false, nil
	}
	data, err := os.ReadFile(s.cache)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("trust: read cache: %w", err)
	}
	if _, err := s.apply(data, false); err != nil {
		return false, fmt.Errorf("trust: cache %s: %w", s.cache, err)
	}
	return true, nil
}

// Apply verifies a signed list and puts it in force if it is newer than the current one; the
// cache file is written before the switch. It reports whether the list changed.
func (s *Store) Apply(data []byte) (bool, error) { return s.apply(data, true) }

func (s *Store) apply(data []byte, persist bool) (bool, error) {
	l, err := Open(data, s.ca)
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	switch {
	case cur != nil && l.Version < cur.Version:
		return false, fmt.Errorf("trust: %w: version %d, holding %d", ErrStale, l.Version, cur.Version)
	case cur != nil && l.Version == cur.Version:
		return false, nil
	}
	if persist && s.cache != "" {
		if err := WriteFile(s.cache, data); err != nil {
			return false, err
		}
	}
	s.cur.Store(l)
	if s.onChange != nil {
		s.onChange(l)
	}
	return true, nil
}
