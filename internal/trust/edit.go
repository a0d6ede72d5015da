package trust

import (
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sucursal/sucursal/internal/pki"
)

// FileName is the signed list in the operator's PKI directory: the source of truth that
// fleetctl edits and publishes.
const FileName = "trust.json"

// DefaultRenewGrace is how long a renewed edge's old certificate stays accepted.
const DefaultRenewGrace = 7 * 24 * time.Hour

// ErrNotEnrolled means an operation names an edge the list does not enrol.
var ErrNotEnrolled = errors.New("edge is not enrolled")

// ReadFile reads and verifies a signed list. A missing file is an empty list (version 0), so the
// first enrolment creates it.
func ReadFile(path string, ca *x509.Certificate) (*List, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &List{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	l, err := Open(data, ca)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// Enrol adds cert's edge to the list, or updates its entry. A different certificate for an
// already enrolled id replaces the old one at once (use Renew for an overlap). Labels, if not nil,
// replace the entry's labels.
func (l *List) Enrol(cert *x509.Certificate, labels map[string]string, now time.Time) error {
	id, err := pki.EdgeID(cert)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	fp := Fingerprint(cert)
	if slices.ContainsFunc(l.Revoked, func(r Revocation) bool { return r.Fingerprint == fp }) {
		return fmt.Errorf("trust: certificate %s of edge %q is revoked; issue a new one with: fleetctl pki renew %s", Serial(cert), id, id)
	}
	if e := l.Find(id); e != nil {
		if e.Fingerprint != fp {
			e.Serial, e.Fingerprint, e.NotAfter, e.Enrolled = Serial(cert), fp, cert.NotAfter.UTC(), now.UTC()
		}
		if labels != nil {
			e.Labels = labels
		}
		return nil
	}
	l.Enrolled = append(l.Enrolled, Enrolment{EdgeID: id, Serial: Serial(cert), Fingerprint: fp,
		NotAfter: cert.NotAfter.UTC(), Labels: labels, Enrolled: now.UTC()})
	slices.SortFunc(l.Enrolled, func(a, b Enrolment) int { return compare(a.EdgeID, b.EdgeID) })
	return nil
}

// Renew enrols the renewed certificate of an enrolled edge; the certificate it replaces stays
// accepted until now+grace (0: at once).
func (l *List) Renew(renewed *x509.Certificate, grace time.Duration, now time.Time) error {
	id, err := pki.EdgeID(renewed)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	e := l.Find(id)
	if e == nil {
		return fmt.Errorf("trust: %w: %q (enrol it with: fleetctl pki add-edge %s)", ErrNotEnrolled, id, id)
	}
	fp := Fingerprint(renewed)
	if e.Fingerprint == fp {
		return nil
	}
	// Drop superseded certificates whose grace is over; they are refused anyway.
	e.Superseded = slices.DeleteFunc(e.Superseded, func(s Superseded) bool { return !now.Before(s.Until) })
	if grace > 0 {
		e.Superseded = append(e.Superseded, Superseded{Serial: e.Serial, Fingerprint: e.Fingerprint, Until: now.Add(grace).UTC()})
	}
	e.Serial, e.Fingerprint, e.NotAfter, e.Enrolled = Serial(renewed), fp, renewed.NotAfter.UTC(), now.UTC()
	return nil
}

// Revoke revokes every certificate the list knows for id (the enrolled one and those a renewal
// superseded) and drops its enrolment. The revocations it added are returned.
func (l *List) Revoke(id, reason string, now time.Time) ([]Revocation, error) {
	i := slices.IndexFunc(l.Enrolled, func(e Enrolment) bool { return e.EdgeID == id })
	if i < 0 {
		return nil, fmt.Errorf("trust: %w: %q", ErrNotEnrolled, id)
	}
	e := l.Enrolled[i]
	if reason == "" {
		reason = "unspecified"
	}
	added := []Revocation{{EdgeID: id, Serial: e.Serial, Fingerprint: e.Fingerprint, Reason: reason, At: now.UTC(), NotAfter: e.NotAfter}}
	for _, s := range e.Superseded {
		added = append(added, Revocation{EdgeID: id, Serial: s.Serial, Fingerprint: s.Fingerprint, Reason: reason, At: now.UTC(), NotAfter: e.NotAfter})
	}
	l.Revoked = append(l.Revoked, added...)
	l.Enrolled = slices.Delete(l.Enrolled, i, i+1)
	return added, nil
}

// Prune drops revocations of certificates that have expired (more than a day ago): a gateway
// refuses those as expired, and the list stays small.
func (l *List) Prune(now time.Time) int {
	n := len(l.Revoked)
	l.Revoked = slices.DeleteFunc(l.Revoked, func(r Revocation) bool {
		return !r.NotAfter.IsZero() && now.After(r.NotAfter.Add(24*time.Hour))
	})
	return n - len(l.Revoked)
}

// Seal raises the version, stamps the time and signs the list. The caller writes the result
// (WriteFile) and publishes it (Publish).
func (l *List) Seal(ca *pki.CA, now time.Time) ([]byte, error) {
	next := l.clone()
	next.Version++
	next.Issued = now.UTC()
	data, err := Sign(next, ca.Signer())
	if err != nil {
		return nil, err
	}
	*l = next
	return data, nil
}

// WriteFile replaces path with data atomically (temp file, fsync, rename). The list is public to
// the fleet (it holds no secret), so it is world-readable.
func WriteFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("trust: write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return fmt.Errorf("trust: write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("trust: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("trust: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("trust: write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("trust: write %s: %w", path, err)
	}
	return nil
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
