// Package agent assembles the edge-agent from its configuration: the QUIC link to the datacenter,
// the request pipeline, the HTTP API and the metrics endpoint, and runs them under one owner.
// cmd/edge-agent is a thin shell around it; tests build the same agent in-process.
//
// It must never log request content.
package agent
