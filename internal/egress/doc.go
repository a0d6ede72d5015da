// Package egress is the branch's exit: the last check on every request the edge sends to the
// datacenter (chat requests, the guard's fallback, drafting rounds), run by the DC client (package dc) just before
// a byte is written. It scans every string of the request once more with the redaction policy's
// deterministic recognizers (redact.Redactor.ScanEgress) and fails the request closed when they
// find anything: redaction should have replaced it, so it is a field or a form the redaction
// stage missed.
//
// It must never log, count by or return a value it finds — only entity types, counts, the
// operation and sizes — and never let a request through when its scan fails.
package egress
