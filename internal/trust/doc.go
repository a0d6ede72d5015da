// Package trust is the fleet's say on which edges may connect to a dc-gateway: an enrolment list
// (edge ids with the fingerprint of the one certificate each may use, and site labels) and a
// revocation list, together in one document signed with the fleet CA's key.
//
// Operators write it (fleetctl pki add-edge, revoke, renew) into the PKI directory and publish it
// to a NATS KV bucket; gateways watch that bucket, keep the last list they accepted on disk, and
// start from it when NATS is out of reach. The gateway admits a certificate at the TLS handshake
// only if the list enrols it and does not revoke it (Gate, through pki.GatewayTLS), keeps one live
// connection per edge id, and closes live connections the list no longer admits.
//
// The list is only as trustworthy as its signature: whoever can write the bucket (edges cannot;
// see fleet.EdgePermissions) still cannot enrol anyone without the CA key, cannot make a gateway
// go back to an older list (versions only rise), and deleting the key leaves the gateways on the
// last list they had. This package never logs certificate contents beyond ids, serials and
// fingerprints, and holds no private key.
package trust
