package apikey

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func writeKeys(t *testing.T, path string, keys ...Key) {
	t.Helper()
	if err := WriteFile(path, File{Keys: keys}); err != nil {
		t.Fatal(err)
	}
}

func TestGenerateVerifyRevokeReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.yaml")
	k1, tok1, err := Generate("ventanilla", "", nil, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	k2, tok2, _ := Generate("monitor", ClassBatch, []string{ScopeMetrics}, "", time.Now())
	writeKeys(t, path, k1, k2)
	b, _ := os.ReadFile(path)
	for _, tok := range []string{tok1, tok2} {
		if strings.Contains(string(b), strings.SplitN(tok, "-", 4)[3]) {
			t.Fatal("the key file holds a secret")
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Fatalf("a new key file has mode %v, want 0640 (the service's group reads it, others nothing)", st.Mode())
	}
	// Rewriting keeps the operator's mode, minus anything for other users.
	if err := os.Chmod(path, 0o604); err != nil {
		t.Fatal(err)
	}
	writeKeys(t, path, k1, k2)
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("rewritten key file has mode %v, want 0600 (0604 without the world bit)", st.Mode())
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := s.Verify(ctx, tok1)
	if err != nil || got.Tenant != "ventanilla" || got.Class != ClassInteractive || !got.Has(ScopeChat) || got.Has(ScopeMetrics) {
		t.Fatalf("%+v %v", got, err)
	}
	if got, err := s.Verify(ctx, tok2); err != nil || !got.Has(ScopeMetrics) || got.Has(ScopeChat) {
		t.Fatalf("%+v %v", got, err)
	}
	// A wrong secret for a real id, a malformed token, nothing.
	bad := tok1[:len(tok1)-4] + "AAAA"
	for tok, want := range map[string]error{bad: ErrInvalid, "sk-other": ErrInvalid, "": ErrMissing} {
		if _, err := s.Verify(ctx, tok); !errors.Is(err, want) {
			t.Errorf("%q: got %v, want %v", tok, err, want)
		}
	}
	// Revoked in the file: the store notices and refuses with ErrRevoked.
	time.Sleep(10 * time.Millisecond) // a new mtime
	k1.Revoked = time.Now()
	writeKeys(t, path, k1, k2)
	if !s.Changed() {
		t.Fatal("change not seen")
	}
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Verify(ctx, tok1); !errors.Is(err, ErrRevoked) {
		t.Fatalf("revoked key: %v", err)
	}
	// A broken file keeps the keys in force.
	if err := os.WriteFile(path, []byte("keys: [ {id: nonsense"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Reload(); err == nil {
		t.Fatal("a broken file was accepted")
	}
	if _, err := s.Verify(ctx, tok2); err != nil {
		t.Fatalf("keys in force lost after a bad reload: %v", err)
	}
}

// A flood of wrong secrets for a real id costs at most MaxConcurrentDerivations derivations at
// once: the rest are refused at once with ErrBusy, not queued.
func TestDerivationsAreBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.yaml")
	k, tok, _ := Generate("a", "", nil, "", time.Now())
	writeKeys(t, path, k)
	s, _ := Open(path)
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[error]int{}
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := s.Verify(context.Background(), tok[:len(tok)-2]+string(rune('a'+i%26))+"x")
			mu.Lock()
			counts[err]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	if counts[ErrBusy] == 0 || counts[ErrInvalid] == 0 || counts[ErrBusy]+counts[ErrInvalid] != 16 {
		t.Fatalf("got %v", counts)
	}
	// The right key still verifies, and from memory the second time.
	if _, err := s.Verify(context.Background(), tok); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := s.Verify(context.Background(), tok); err != nil || time.Since(start) > 5*time.Millisecond {
		t.Logf("second verification took %v (expected a memory lookup)", time.Since(start))
	}
}

func TestFileValidation(t *testing.T) {
	err := File{Keys: []Key{{ID: "x", Tenant: "Bad Tenant", Hash: "md5"}, {ID: "x", Tenant: "a", Hash: "$argon2id$", Class: "vip"}}}.Validate()
	for _, want := range []string{"keys[0]: id", "keys[0]: tenant", "keys[0]: hash", "keys[1]: id", "keys[1]: class"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
	if _, _, err := Generate("ok", "", []string{"admin"}, "", time.Now()); err == nil {
		t.Error("an unknown scope was accepted")
	}
}
