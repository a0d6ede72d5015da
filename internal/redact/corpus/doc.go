// Package corpus generates, reads and writes the labelled evaluation corpus of branch prompts
// (Spanish and English; bank, clinic and law office) with personal data and decoys, and checks
// captured egress text for leaks of a labelled value in any form.
//
// Every value is synthetic and made here, deterministically from a seed, with check digits
// computed by this package's own code (not package redact's), so that the redactor is measured
// against an independent reading of each format. This package must never hold real personal
// data, and must not depend on package redact.
package corpus
