package manifest

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Sentinel errors callers branch on (and that the agent turns into a status reason).
var (
	ErrMalformed     = errors.New("manifest: malformed")
	ErrUnknownSigner = errors.New("manifest: unknown signer")
	ErrBadSignature  = errors.New("manifest: bad signature")
	ErrExpired       = errors.New("manifest: expired")
)

// Runtimes the fleet knows how to install into.
const (
	RuntimeOllama   = "ollama"
	RuntimeOVMS     = "ovms"
	RuntimeLlamaCPP = "llamacpp"
)

// Kinds of signed payload. The kind is part of the signed bytes so that a signature made for one
// kind can never be presented as the other.
const (
	KindManifest = "manifest"
	KindRollback = "rollback"
)

var (
	roleRE    = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)
	versionRE = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$`)
	digestRE  = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// Manifest describes one model artifact. Digest is in Ollama's form, sha256:<hex>, because that
// is what the runtime checks on install; Object is the artifact's name in the object store.
type Manifest struct {
	Role                 string    `json:"role"`
	Version              string    `json:"version"`
	Digest               string    `json:"digest"`
	Size                 int64     `json:"size"`
	Runtime              string    `json:"runtime"`
	TokenizerFingerprint string    `json:"tokenizer_fingerprint,omitempty"`
	Object               string    `json:"object"`
	Created              time.Time `json:"created"`
	Expires              time.Time `json:"expires"`
	Signer               string    `json:"signer"`
}

// Rollback allows an edge running FromVersion of Role to install the older ToVersion.
type Rollback struct {
	Role        string    `json:"role"`
	FromVersion string    `json:"from_version"`
	ToVersion   string    `json:"to_version"`
	Created     time.Time `json:"created"`
	Expires     time.Time `json:"expires"`
	Signer      string    `json:"signer"`
}

// Envelope is what travels: the exact signed bytes plus the signature. Keeping the payload as
// bytes (not re-marshalled JSON) means verification never depends on JSON canonicalisation.
type Envelope struct {
	Kind    string `json:"kind"`
	Payload []byte `json:"payload"`
	KeyID   string `json:"key_id"`
	Sig     []byte `json:"sig"`
}

// DigestHex returns the hex part of the manifest digest.
func (m Manifest) DigestHex() string { return strings.TrimPrefix(m.Digest, "sha256:") }

// Validate lists every problem with the manifest's fields at once.
func (m Manifest) Validate() error {
	var errs []error
	if !roleRE.MatchString(m.Role) {
		errs = append(errs, fmt.Errorf("role %q must match %s", m.Role, roleRE))
	}
	if !versionRE.MatchString(m.Version) {
		errs = append(errs, fmt.Errorf("version %q must match %s", m.Version, versionRE))
	}
	if !digestRE.MatchString(m.Digest) {
		errs = append(errs, errors.New("digest must be sha256:<64 hex>"))
	}
	if m.Size <= 0 {
		errs = append(errs, errors.New("size must be positive"))
	}
	switch m.Runtime {
	case RuntimeOllama, RuntimeOVMS, RuntimeLlamaCPP:
	default:
		errs = append(errs, fmt.Errorf("runtime %q unknown", m.Runtime))
	}
	if m.Object == "" {
		errs = append(errs, errors.New("object name is empty"))
	}
	if !m.Expires.After(m.Created) {
		errs = append(errs, errors.New("expires must be after created"))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrMalformed, errors.Join(errs...))
	}
	return nil
}

// Validate lists every problem with the directive's fields at once.
func (r Rollback) Validate() error {
	var errs []error
	if !roleRE.MatchString(r.Role) {
		errs = append(errs, fmt.Errorf("role %q invalid", r.Role))
	}
	if !versionRE.MatchString(r.FromVersion) || !versionRE.MatchString(r.ToVersion) {
		errs = append(errs, errors.New("from/to version invalid"))
	}
	if !r.Expires.After(r.Created) {
		errs = append(errs, errors.New("expires must be after created"))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrMalformed, errors.Join(errs...))
	}
	return nil
}

// ValidRole reports whether role is usable as a role name (also a NATS key token and an Ollama
// model name).
func ValidRole(role string) bool { return roleRE.MatchString(role) }

// ValidVersion reports whether v is usable as a version (also an Ollama tag).
func ValidVersion(v string) bool { return versionRE.MatchString(v) }

// DigestFromHex renders a hex SHA-256 in the manifest's digest form.
func DigestFromHex(sum []byte) string { return "sha256:" + hex.EncodeToString(sum) }

func signedBytes(kind string, payload []byte) []byte {
	b := make([]byte, 0, len(kind)+len(payload)+16)
	b = append(b, "sucursal-"+kind+"-v1\n"...)
	return append(b, payload...)
}

func seal(kind string, v any, priv ed25519.PrivateKey) (Envelope, error) {
	payload, err := json.Marshal(v)
	if err != nil {
		return Envelope{}, fmt.Errorf("manifest: marshal: %w", err)
	}
	pub := priv.Public().(ed25519.PublicKey)
	return Envelope{
		Kind:    kind,
		Payload: payload,
		KeyID:   KeyID(pub),
		Sig:     ed25519.Sign(priv, signedBytes(kind, payload)),
	}, nil
}

// Sign validates m, stamps the signer and returns the signed envelope.
func Sign(m Manifest, priv ed25519.PrivateKey) (Envelope, error) {
	m.Signer = KeyID(priv.Public().(ed25519.PublicKey))
	if err := m.Validate(); err != nil {
		return Envelope{}, err
	}
	return seal(KindManifest, m, priv)
}

// SignRollback validates r, stamps the signer and returns the signed envelope.
func SignRollback(r Rollback, priv ed25519.PrivateKey) (Envelope, error) {
	r.Signer = KeyID(priv.Public().(ed25519.PublicKey))
	if err := r.Validate(); err != nil {
		return Envelope{}, err
	}
	return seal(KindRollback, r, priv)
}

// open checks the signature and returns the payload; it does not look at the payload's meaning.
func (t Trust) open(env Envelope, kind string) ([]byte, error) {
	if env.Kind != kind {
		return nil, fmt.Errorf("%w: kind %q, want %q", ErrMalformed, env.Kind, kind)
	}
	pub, ok := t[env.KeyID]
	if !ok {
		return nil, fmt.Errorf("%w: key %s", ErrUnknownSigner, env.KeyID)
	}
	if !ed25519.Verify(pub, signedBytes(kind, env.Payload), env.Sig) {
		return nil, ErrBadSignature
	}
	return env.Payload, nil
}

// Verify checks env against the trust set and the clock and returns the manifest it carries.
func (t Trust) Verify(env Envelope, now time.Time) (Manifest, error) {
	payload, err := t.open(env, KindManifest)
	if err != nil {
		return Manifest{}, err
	}
	var m Manifest
	if err := json.Unmarshal(payload, &m); err != nil {
		return Manifest{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if m.Signer != env.KeyID {
		return Manifest{}, fmt.Errorf("%w: signer field does not match key", ErrBadSignature)
	}
	if err := m.Validate(); err != nil {
		return Manifest{}, err
	}
	if !now.Before(m.Expires) {
		return Manifest{}, fmt.Errorf("%w: at %s", ErrExpired, m.Expires.UTC().Format(time.RFC3339))
	}
	return m, nil
}

// VerifyRollback checks env against the trust set and the clock and returns the directive.
func (t Trust) VerifyRollback(env Envelope, now time.Time) (Rollback, error) {
	payload, err := t.open(env, KindRollback)
	if err != nil {
		return Rollback{}, err
	}
	var r Rollback
	if err := json.Unmarshal(payload, &r); err != nil {
		return Rollback{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if r.Signer != env.KeyID {
		return Rollback{}, fmt.Errorf("%w: signer field does not match key", ErrBadSignature)
	}
	if err := r.Validate(); err != nil {
		return Rollback{}, err
	}
	if !now.Before(r.Expires) {
		return Rollback{}, fmt.Errorf("%w: rollback directive", ErrExpired)
	}
	return r, nil
}

// ParseEnvelope decodes a JSON envelope.
func ParseEnvelope(data []byte) (Envelope, error) {
	var env Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return Envelope{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if env.Kind == "" || len(env.Payload) == 0 || len(env.Sig) != ed25519.SignatureSize {
		return Envelope{}, fmt.Errorf("%w: incomplete envelope", ErrMalformed)
	}
	return env, nil
}
