package manifest

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
)

// ErrBadKey is returned for key material that cannot be parsed or has the wrong type.
var ErrBadKey = errors.New("manifest: bad key")

// KeyID names a public key in manifests: the first 8 bytes of its SHA-256, in hex. It lets the
// agent pick the right trusted key and lets operators see who signed without exposing the key.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// GenerateKey makes a new ed25519 signing key.
func GenerateKey() (ed25519.PrivateKey, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("manifest: generate key: %w", err)
	}
	return priv, nil
}

// MarshalPrivateKey encodes priv as a PKCS#8 PEM block, the format openssl also reads.
func MarshalPrivateKey(priv ed25519.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("manifest: marshal private key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// MarshalPublicKey encodes pub as a PKIX PEM block.
func MarshalPublicKey(pub ed25519.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("manifest: marshal public key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// ParsePrivateKey reads a PKCS#8 PEM ed25519 private key.
func ParsePrivateKey(data []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%w: no PRIVATE KEY PEM block", ErrBadKey)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadKey, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%w: not an ed25519 key", ErrBadKey)
	}
	return priv, nil
}

// ParsePublicKeys reads every PUBLIC KEY PEM block in data, so one file can hold a whole trust set
// (for example the current and the next signing key during a rotation).
func ParsePublicKeys(data []byte) ([]ed25519.PublicKey, error) {
	var keys []ed25519.PublicKey
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("%w: unexpected PEM block %q", ErrBadKey, block.Type)
		}
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadKey, err)
		}
		pub, ok := k.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("%w: not an ed25519 key", ErrBadKey)
		}
		keys = append(keys, pub)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: no PUBLIC KEY PEM block", ErrBadKey)
	}
	return keys, nil
}

// ReadPrivateKeyFile reads a private key written by MarshalPrivateKey.
func ReadPrivateKeyFile(path string) (ed25519.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("manifest: read private key: %w", err)
	}
	return ParsePrivateKey(data)
}

// Trust is the set of public keys an edge accepts signatures from, indexed by KeyID.
type Trust map[string]ed25519.PublicKey

// NewTrust builds a trust set from public keys.
func NewTrust(keys ...ed25519.PublicKey) Trust {
	t := make(Trust, len(keys))
	for _, k := range keys {
		t[KeyID(k)] = k
	}
	return t
}

// ReadTrustFiles reads PEM public keys from every path into one trust set.
func ReadTrustFiles(paths ...string) (Trust, error) {
	var all []ed25519.PublicKey
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("manifest: read trusted keys: %w", err)
		}
		keys, err := ParsePublicKeys(data)
		if err != nil {
			return nil, fmt.Errorf("manifest: %s: %w", p, err)
		}
		all = append(all, keys...)
	}
	return NewTrust(all...), nil
}
