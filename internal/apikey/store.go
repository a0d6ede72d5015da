package apikey

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.yaml.in/yaml/v3"
	"golang.org/x/crypto/argon2"
)

// Errors Verify returns (the HTTP layer maps them to 401 and 403).
var (
	ErrMissing = errors.New("apikey: no API key")
	ErrInvalid = errors.New("apikey: invalid API key")
	ErrRevoked = errors.New("apikey: revoked API key")
	ErrBusy    = errors.New("apikey: too many key verifications at once")
)

// Scopes a key can hold.
const (
	ScopeChat    = "chat"    // POST /v1/chat/completions, GET /v1/models
	ScopeMetrics = "metrics" // GET /metrics and /readyz details on the API listener
)

// Priority classes: a priority shares the branch's capacity out; it does not create any.
const (
	ClassInteractive = "interactive"
	ClassBatch       = "batch"
)

// Key is one entry of the key file. Hash is the argon2id hash of the secret part.
type Key struct {
	ID      string    `yaml:"id"`
	Tenant  string    `yaml:"tenant"`
	Class   string    `yaml:"class,omitempty"`
	Scopes  []string  `yaml:"scopes,omitempty"`
	Hash    string    `yaml:"hash"`
	Created time.Time `yaml:"created"`
	Revoked time.Time `yaml:"revoked,omitempty"`
	Note    string    `yaml:"note,omitempty"`
}

// Has reports whether the key holds scope (no scopes listed: chat only).
func (k Key) Has(scope string) bool {
	if len(k.Scopes) == 0 {
		return scope == ScopeChat
	}
	return slices.Contains(k.Scopes, scope)
}

// File is the key file.
type File struct {
	Keys []Key `yaml:"keys"`
}

var (
	tokenRE  = regexp.MustCompile(`^sk-suc-([0-9a-f]{24})-([A-Za-z0-9_-]{43})$`)
	tenantRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)
)

// Argon2id parameters: OWASP's minimum (19 MiB, 2 passes, one lane). A derivation takes about
// 30 ms on a NUC core and is done once per key per process.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
)

func hashSecret(secret string, salt []byte) string {
	sum := argon2.IDKey([]byte(secret), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$%s$%s", argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(sum))
}

// checkSecret compares secret with an encoded argon2id hash, reading its parameters.
func checkSecret(secret, encoded string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m > 256*1024 || t > 10 || p == 0 {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(secret), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// Generate makes a new key for tenant: the entry to store and the token to hand out (once).
func Generate(tenant, class string, scopes []string, note string, now time.Time) (Key, string, error) {
	if !tenantRE.MatchString(tenant) {
		return Key{}, "", fmt.Errorf("apikey: tenant %q: want 1–32 of a-z 0-9 _ - (it becomes a metric label)", tenant)
	}
	if class == "" {
		class = ClassInteractive
	}
	if class != ClassInteractive && class != ClassBatch {
		return Key{}, "", fmt.Errorf("apikey: class %q: want interactive or batch", class)
	}
	for _, s := range scopes {
		if s != ScopeChat && s != ScopeMetrics {
			return Key{}, "", fmt.Errorf("apikey: scope %q: want chat or metrics", s)
		}
	}
	var id [12]byte
	var secret [32]byte
	var salt [16]byte
	for _, b := range [][]byte{id[:], secret[:], salt[:]} {
		if _, err := rand.Read(b); err != nil {
			return Key{}, "", err
		}
	}
	sec := base64.RawURLEncoding.EncodeToString(secret[:])
	k := Key{ID: hex.EncodeToString(id[:]), Tenant: tenant, Class: class, Scopes: scopes, Hash: hashSecret(sec, salt[:]),
		Created: now.UTC().Truncate(time.Second), Note: note}
	return k, "sk-suc-" + k.ID + "-" + sec, nil
}

// ReadFile reads and checks a key file; a missing file is an empty one.
func ReadFile(path string) (File, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return File{}, nil
	}
	if err != nil {
		return File{}, fmt.Errorf("apikey: %w", err)
	}
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return File{}, fmt.Errorf("apikey: %s: %w", path, err)
	}
	return f, f.Validate()
}

// Validate lists every problem of the file at once.
func (f File) Validate() error {
	var errs []error
	seen := map[string]bool{}
	for i, k := range f.Keys {
		at := fmt.Sprintf("keys[%d]", i)
		if len(k.ID) != 24 || seen[k.ID] {
			errs = append(errs, fmt.Errorf("apikey: %s: id must be 24 hex digits and unique", at))
		}
		seen[k.ID] = true
		if !tenantRE.MatchString(k.Tenant) {
			errs = append(errs, fmt.Errorf("apikey: %s: tenant %q: want 1–32 of a-z 0-9 _ -", at, k.Tenant))
		}
		if k.Class != "" && k.Class != ClassInteractive && k.Class != ClassBatch {
			errs = append(errs, fmt.Errorf("apikey: %s: class %q: want interactive or batch", at, k.Class))
		}
		if !strings.HasPrefix(k.Hash, "$argon2id$") {
			errs = append(errs, fmt.Errorf("apikey: %s: hash is not an argon2id hash", at))
		}
	}
	return errors.Join(errs...)
}

// WriteFile writes f atomically with mode 0600 (the hashes are not secrets, but the file says
// which apps exist).
func WriteFile(path string, f File) error {
	if err := f.Validate(); err != nil {
		return err
	}
	b, err := yaml.Marshal(f)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".keys-*")
	if err != nil {
		return fmt.Errorf("apikey: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append([]byte("# API keys of this branch endpoint: edit with `edge-agent keys`. Hashes only.\n"), b...)); err != nil {
		tmp.Close()
		return fmt.Errorf("apikey: %w", err)
	}
	if err := keepOwnership(tmp, path); err != nil {
		tmp.Close()
		return fmt.Errorf("apikey: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("apikey: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

// Store verifies presented keys against the key file, re-reading it when it changes.
type Store struct {
	path string

	mu       sync.RWMutex
	keys     map[string]Key    // by id
	verified map[[32]byte]bool // sha256(pepper‖token) of keys already verified, valid while the file is unchanged
	modTime  time.Time
	size     int64
	pepper   [32]byte

	derive chan struct{} // bounds argon2id derivations at once
}

// MaxConcurrentDerivations bounds the argon2id work (19 MiB each) a flood of new keys can cause.
const MaxConcurrentDerivations = 2

// Open reads the key file at path (a missing file means no keys yet).
func Open(path string) (*Store, error) {
	s := &Store{path: path, derive: make(chan struct{}, MaxConcurrentDerivations)}
	if _, err := rand.Read(s.pepper[:]); err != nil {
		return nil, err
	}
	if err := s.Reload(); err != nil {
		return nil, err
	}
	return s, nil
}

// Reload re-reads the file; on an error the keys in force stay as they were.
func (s *Store) Reload() error {
	st, statErr := os.Stat(s.path)
	f, err := ReadFile(s.path)
	if err != nil {
		return err
	}
	keys := make(map[string]Key, len(f.Keys))
	for _, k := range f.Keys {
		keys[k.ID] = k
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys, s.verified = keys, map[[32]byte]bool{}
	if statErr == nil {
		s.modTime, s.size = st.ModTime(), st.Size()
	}
	return nil
}

// Changed reports whether the file changed since it was last read.
func (s *Store) Changed() bool {
	st, err := os.Stat(s.path)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err != nil {
		return len(s.keys) > 0 // removed: it had keys, now it has none
	}
	return !st.ModTime().Equal(s.modTime) || st.Size() != s.size
}

// Watch re-reads the file every interval when it changed, until ctx ends; onReload reports each
// reload (nil error: reloaded).
func (s *Store) Watch(ctx context.Context, interval time.Duration, onReload func(n int, err error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if s.Changed() {
				err := s.Reload()
				onReload(s.Len(), err)
			}
		}
	}
}

// Len is the number of keys in force (revoked ones included).
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.keys)
}

// Tenants lists the tenants of the keys (for metric label bounds).
func (s *Store) Tenants() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []string
	for _, k := range s.keys {
		if !slices.Contains(out, k.Tenant) {
			out = append(out, k.Tenant)
		}
	}
	slices.Sort(out)
	return out
}

// Verify returns the key a presented token belongs to. ErrBusy means the derivation slots are
// taken (the caller answers 503 and the client retries).
func (s *Store) Verify(ctx context.Context, token string) (Key, error) {
	if token == "" {
		return Key{}, ErrMissing
	}
	m := tokenRE.FindStringSubmatch(token)
	if m == nil {
		return Key{}, ErrInvalid
	}
	s.mu.RLock()
	k, ok := s.keys[m[1]]
	h := sha256.Sum256(append(s.pepper[:], token...))
	known := s.verified[h]
	s.mu.RUnlock()
	if !ok {
		return Key{}, ErrInvalid
	}
	if !known {
		select {
		case s.derive <- struct{}{}:
		case <-ctx.Done():
			return Key{}, ctx.Err()
		default:
			return Key{}, ErrBusy
		}
		good := checkSecret(m[2], k.Hash)
		<-s.derive
		if !good {
			return Key{}, ErrInvalid
		}
		s.mu.Lock()
		if cur, ok := s.keys[k.ID]; ok && cur.Hash == k.Hash && len(s.verified) < 10000 {
			s.verified[h] = true
		}
		s.mu.Unlock()
	}
	if !k.Revoked.IsZero() {
		return k, ErrRevoked
	}
	return k, nil
}

// ServiceGroup is the group the packaged edge-agent runs as (packaging/sysusers.d).
const ServiceGroup = "sucursal"

// keepOwnership gives the new key file the mode and owner of the file it replaces, so branch IT
// editing keys as root does not lock the agent (user sucursal) out of them. A new file is 0640;
// written by root, its group is ServiceGroup when that group exists (the packaged layout).
// Hashes only are in the file, but it stays unreadable to other users.
func keepOwnership(tmp *os.File, path string) error {
	mode, uid, gid := os.FileMode(0o640), -1, -1
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm() &^ 0o007 // never world-readable, whatever it was
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			uid, gid = int(st.Uid), int(st.Gid)
		}
	} else if os.Geteuid() == 0 {
		if g, err := user.LookupGroup(ServiceGroup); err == nil {
			gid, _ = strconv.Atoi(g.Gid)
		}
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if (uid >= 0 || gid >= 0) && os.Geteuid() == 0 {
		return tmp.Chown(uid, gid)
	}
	return nil
}
