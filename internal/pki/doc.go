// Package pki is the fleet's certificate authority: it creates the CA, the dc-gateway server
// certificate and one client certificate per edge (branch NUC), and builds the TLS 1.3 configs that
// the edge⇄DC QUIC link uses for mutual authentication.
//
// An edge's identity is the edge id carried in its certificate (URI SAN urn:sucursal:edge:<id>,
// with the Subject CN agreeing). The gateway learns who is calling only from a verified certificate,
// never from anything the client says.
//
// This package must never overwrite an existing CA unless asked to (Options.Force), never write a
// private key readable by anyone but its owner, never load a key file that others can read, and
// never put key material in errors or logs. It does no network I/O.
package pki
