package trust

import (
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sucursal/sucursal/internal/pki"
)

// List is the enrolment and revocation list. Version rises with every change; a gateway never
// accepts a lower one than it holds.
type List struct {
	Version  uint64       `json:"version"`
	Issued   time.Time    `json:"issued"`
	Enrolled []Enrolment  `json:"enrolled"`
	Revoked  []Revocation `json:"revoked"`
}

// Enrolment is one edge allowed on the link with one certificate (Fingerprint), plus the
// certificates a renewal replaced, each still accepted until its Until.
type Enrolment struct {
	EdgeID      string            `json:"edge_id"`
	Serial      string            `json:"serial"`      // hex, for people and logs
	Fingerprint string            `json:"fingerprint"` // SHA-256 of the certificate, hex: what is checked
	NotAfter    time.Time         `json:"not_after"`
	Labels      map[string]string `json:"labels,omitempty"` // site labels, e.g. region=norte
	Enrolled    time.Time         `json:"enrolled"`
	Superseded  []Superseded      `json:"superseded,omitempty"`
}

// Superseded is a certificate a renewal replaced, accepted until Until so that the edge keeps its
// link while its new files are copied over.
type Superseded struct {
	Serial      string    `json:"serial"`
	Fingerprint string    `json:"fingerprint"`
	Until       time.Time `json:"until"`
}

// Revocation is one certificate no gateway may admit again, whatever the enrolment says.
type Revocation struct {
	EdgeID      string    `json:"edge_id"`
	Serial      string    `json:"serial"`
	Fingerprint string    `json:"fingerprint"`
	Reason      string    `json:"reason"`
	At          time.Time `json:"at"`
	NotAfter    time.Time `json:"not_after"` // past it the certificate is refused as expired anyway
}

// Fingerprint is the SHA-256 of a certificate's DER, in hex.
func Fingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.Raw)
	return hex.EncodeToString(sum[:])
}

// Serial is a certificate's serial number in hex.
func Serial(c *x509.Certificate) string { return c.SerialNumber.Text(16) }

// Find returns the enrolment of id, or nil.
func (l *List) Find(id string) *Enrolment {
	if l == nil {
		return nil
	}
	for i := range l.Enrolled {
		if l.Enrolled[i].EdgeID == id {
			return &l.Enrolled[i]
		}
	}
	return nil
}

// Check decides whether the edge id with this (already chain-verified) certificate may connect
// at now. A refusal is a *pki.RefusedError with reason revoked or unenrolled.
func (l *List) Check(id string, leaf *x509.Certificate, now time.Time) error {
	if l == nil {
		return pki.Refuse(pki.ReasonUnenrolled, "no enrolment list loaded yet: no edge is admitted")
	}
	fp := Fingerprint(leaf)
	for _, r := range l.Revoked {
		if r.Fingerprint == fp {
			return pki.Refuse(pki.ReasonRevoked, "certificate %s of edge %q was revoked on %s (%s)",
				r.Serial, r.EdgeID, r.At.UTC().Format(time.RFC3339), r.Reason)
		}
	}
	e := l.Find(id)
	if e == nil {
		return pki.Refuse(pki.ReasonUnenrolled, "edge %q is not enrolled", id)
	}
	if e.Fingerprint == fp {
		return nil
	}
	for _, s := range e.Superseded {
		if s.Fingerprint != fp {
			continue
		}
		if now.Before(s.Until) {
			return nil
		}
		return pki.Refuse(pki.ReasonUnenrolled, "certificate %s of edge %q was superseded by a renewal (accepted until %s)",
			s.Serial, id, s.Until.UTC().Format(time.RFC3339))
	}
	return pki.Refuse(pki.ReasonUnenrolled, "certificate %s is not the one enrolled for edge %q", Serial(leaf), id)
}

// Validate lists every structural problem at once.
func (l *List) Validate() error {
	var errs []error
	seen := map[string]bool{}
	for _, e := range l.Enrolled {
		if err := pki.ValidateEdgeID(e.EdgeID); err != nil {
			errs = append(errs, err)
		}
		if seen[e.EdgeID] {
			errs = append(errs, fmt.Errorf("edge %q is enrolled twice", e.EdgeID))
		}
		seen[e.EdgeID] = true
		if len(e.Fingerprint) != sha256.Size*2 {
			errs = append(errs, fmt.Errorf("edge %q: fingerprint is not a SHA-256 in hex", e.EdgeID))
		}
	}
	for _, r := range l.Revoked {
		if len(r.Fingerprint) != sha256.Size*2 {
			errs = append(errs, fmt.Errorf("revocation of %q: fingerprint is not a SHA-256 in hex", r.EdgeID))
		}
	}
	return errors.Join(errs...)
}

// signed is the document on disk and in the bucket: the list's exact JSON bytes (base64, so no
// re-encoding of the document can change what was signed) and the CA's signature over them.
type signed struct {
	List      []byte `json:"list"`
	Signature []byte `json:"signature"` // ECDSA (ASN.1) over SHA-256 of domain + list
}

// domain separates a trust-list signature from anything else the CA key signs.
const domain = "sucursal trust list v1\n"

var (
	// ErrBadSignature means a list is not signed by the fleet CA (or was altered).
	ErrBadSignature = errors.New("trust list signature does not verify with the fleet CA")
	// ErrStale means a list is older than the one already held.
	ErrStale = errors.New("trust list is older than the one in force")
)

// Sign encodes l and signs it with the fleet CA's key.
func Sign(l List, key crypto.Signer) ([]byte, error) {
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	body, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("trust: encode list: %w", err)
	}
	sum := sha256.Sum256(append([]byte(domain), body...))
	sig, err := key.Sign(rand.Reader, sum[:], crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("trust: sign list: %w", err)
	}
	out, err := json.MarshalIndent(signed{List: body, Signature: sig}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("trust: encode signed list: %w", err)
	}
	return append(out, '\n'), nil
}

// Open verifies a signed list against the fleet CA certificate and decodes it.
func Open(data []byte, ca *x509.Certificate) (*List, error) {
	var s signed
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("trust: signed list: %w", err)
	}
	if len(s.List) == 0 || len(s.Signature) == 0 {
		return nil, errors.New("trust: signed list: no list or no signature")
	}
	msg := append([]byte(domain), s.List...)
	if err := ca.CheckSignature(x509.ECDSAWithSHA256, msg, s.Signature); err != nil {
		return nil, fmt.Errorf("trust: %w", ErrBadSignature)
	}
	// Unknown fields are ignored: a newer fleetctl may add some, and the signature already says
	// the CA's holder wrote them.
	var l List
	if err := json.Unmarshal(s.List, &l); err != nil {
		return nil, fmt.Errorf("trust: list: %w", err)
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("trust: list: %w", err)
	}
	return &l, nil
}

// clone returns a deep copy for editing.
func (l *List) clone() List {
	out := List{Version: l.Version, Issued: l.Issued, Revoked: slices.Clone(l.Revoked)}
	for _, e := range l.Enrolled {
		e.Superseded = slices.Clone(e.Superseded)
		if e.Labels != nil {
			m := make(map[string]string, len(e.Labels))
			for k, v := range e.Labels {
				m[k] = v
			}
			e.Labels = m
		}
		out.Enrolled = append(out.Enrolled, e)
	}
	return out
}

// PeekVersion reads a signed list's version without verifying it: only for continuing the version
// numbers when a new CA replaces the one that signed it. 0 if unreadable.
func PeekVersion(data []byte) uint64 {
	var s signed
	var l struct {
		Version uint64 `json:"version"`
	}
	if json.Unmarshal(data, &s) != nil || json.Unmarshal(s.List, &l) != nil {
		return 0
	}
	return l.Version
}
