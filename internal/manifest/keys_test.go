package manifest

import "crypto/ed25519"

func ed(b []byte) ed25519.PrivateKey      { return ed25519.PrivateKey(b) }
func publicOf(b []byte) ed25519.PublicKey { return ed25519.PrivateKey(b).Public().(ed25519.PublicKey) }
