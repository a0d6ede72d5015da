// Package loadbench is `edge-agent bench`: a load protocol for any OpenAI-compatible chat
// endpoint (the branch's edge-agent, a dc-gateway's target, a model server) whose results can be
// compared a month later. Scenarios come from a YAML file (token distributions, arrival process,
// streaming, sampling); a matrix of concurrency levels or rates is run with warm-up separated from
// measurement and repeated; each cell reports latency percentiles with sample counts, rejections
// and errors apart, and goodput against an SLO; the report carries a snapshot of what was measured
// (binary, models, hardware, settings, seed) so that the same command and file run it again.
//
// It never sends or records anything but generated text: prompts are synthetic words, answers
// are counted and timed, never kept.
package loadbench
