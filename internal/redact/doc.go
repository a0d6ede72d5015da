// Package redact finds personal data in prompt text, swaps it for typed, numbered placeholders
// before the text leaves the branch, and puts the real values back into the answer — including
// an answer that arrives as a stream of arbitrarily split chunks.
//
// Detection combines regexp2 recognizers validated in Go (DNI/NIE/CIF letters, IBAN and NSS
// mod 97, Luhn…), context words, an in-process gazetteer of names, deny/allow lists, custom
// recognizers from YAML and, optionally, a NER backend on a local model server (see package
// redact/ner). A Session is one request's vault: it lives in memory only, expires, and is
// overwritten when closed.
//
// This package must never log, count by, or return in an error any value it redacts or any
// fragment of the text it scans: logs, metric labels and errors carry types, counts, lengths
// and timings only. It must never fail open: a match timeout or a required NER backend that is
// down refuses the text (ErrMatchTimeout, ErrNERUnavailable) instead of passing it through.
package redact
