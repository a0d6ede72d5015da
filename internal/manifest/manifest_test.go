package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func testManifest() Manifest {
	sum := sha256.Sum256([]byte("artifact"))
	return Manifest{
		Role: "drafter", Version: "1.2.0", Digest: DigestFromHex(sum[:]), Size: 8,
		Runtime: RuntimeOllama, Object: "drafter-1.2.0", Created: t0, Expires: t0.Add(time.Hour),
	}
}

func mustKey(t testing.TB) []byte {
	t.Helper()
	k, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestVerify(t *testing.T) {
	signer, stranger := mustKey(t), mustKey(t)
	trust := NewTrust(publicOf(signer))
	good, err := Sign(testManifest(), signer)
	if err != nil {
		t.Fatal(err)
	}
	tampered := good
	tampered.Payload = bytes.Replace(good.Payload, []byte(`"size":8`), []byte(`"size":9`), 1)
	if bytes.Equal(tampered.Payload, good.Payload) {
		t.Fatal("tampering did not change the payload")
	}
	foreign, _ := Sign(testManifest(), stranger)
	relabelled := foreign
	relabelled.KeyID = good.KeyID
	asRollback := good
	asRollback.Kind = KindRollback

	tests := []struct {
		name string
		env  Envelope
		now  time.Time
		want error
	}{
		{"valid", good, t0.Add(time.Minute), nil},
		{"tampered payload", tampered, t0, ErrBadSignature},
		{"unknown signer", foreign, t0, ErrUnknownSigner},
		{"foreign key claiming trusted id", relabelled, t0, ErrBadSignature},
		{"expired", good, t0.Add(time.Hour), ErrExpired},
		{"wrong kind", asRollback, t0, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := trust.Verify(tt.env, tt.now)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify error = %v, want %v", err, tt.want)
			}
			if tt.want == nil && (m.Version != "1.2.0" || m.Signer != good.KeyID) {
				t.Fatalf("got manifest %+v", m)
			}
		})
	}
}

func TestEnvelopeRoundTripJSON(t *testing.T) {
	signer := mustKey(t)
	env, err := Sign(testManifest(), signer)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseEnvelope(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewTrust(publicOf(signer)).Verify(back, t0); err != nil {
		t.Fatalf("verify after JSON round trip: %v", err)
	}
}

func TestRollbackCannotPassAsManifest(t *testing.T) {
	signer := mustKey(t)
	trust := NewTrust(publicOf(signer))
	rb, err := SignRollback(Rollback{Role: "drafter", FromVersion: "2", ToVersion: "1", Created: t0, Expires: t0.Add(time.Hour)}, signer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trust.VerifyRollback(rb, t0); err != nil {
		t.Fatalf("VerifyRollback: %v", err)
	}
	rb.Kind = KindManifest
	if _, err := trust.Verify(rb, t0); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("rollback relabelled as manifest: err = %v, want ErrBadSignature", err)
	}
}

func TestSignRejectsInvalid(t *testing.T) {
	m := testManifest()
	m.Role, m.Size, m.Runtime = "Bad Role", 0, "tgi"
	_, err := Sign(m, mustKey(t))
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed", err)
	}
}

func TestKeysPEMRoundTrip(t *testing.T) {
	a, b := mustKey(t), mustKey(t)
	privPEM, err := MarshalPrivateKey(a)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePrivateKey(privPEM)
	if err != nil || !back.Equal(ed(a)) {
		t.Fatalf("private key round trip: %v", err)
	}
	pa, _ := MarshalPublicKey(publicOf(a))
	pb, _ := MarshalPublicKey(publicOf(b))
	keys, err := ParsePublicKeys(append(pa, pb...))
	if err != nil || len(keys) != 2 || !keys[1].Equal(publicOf(b)) {
		t.Fatalf("public keys: %v, %d keys", err, len(keys))
	}
	if _, err := ParsePublicKeys(privPEM); !errors.Is(err, ErrBadKey) {
		t.Fatalf("private PEM as public: err = %v", err)
	}
}

func FuzzParseEnvelope(f *testing.F) {
	signer, _ := GenerateKey()
	env, _ := Sign(testManifest(), signer)
	good, _ := json.Marshal(env)
	f.Add(good)
	f.Add([]byte(`{"kind":"manifest","payload":"e30=","key_id":"x","sig":""}`))
	trust := NewTrust(publicOf(signer))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseEnvelope(data)
		if err != nil {
			return
		}
		m, err := trust.Verify(e, t0)
		if err == nil && (m.Validate() != nil || m.Signer != e.KeyID) {
			t.Fatalf("accepted an invalid manifest: %+v", m)
		}
	})
}

func FuzzParsePublicKeys(f *testing.F) {
	k, _ := GenerateKey()
	p, _ := MarshalPublicKey(publicOf(k))
	f.Add(p)
	f.Add([]byte("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		keys, err := ParsePublicKeys(data)
		if err == nil && len(keys) == 0 {
			t.Fatal("no error and no keys")
		}
	})
}
