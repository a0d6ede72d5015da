package testmodel

// Token ids every generated model shares.
const (
	BOSID = bosID
	EOSID = eosID
)

// Next returns the id of the token the model emits after token id (its greedy successor, which
// depends on that token alone): what a fake model server needs to answer like the real model.
func (s Spec) Next(id int) int { return s.successorID(s.vocab(), id) }

// PieceText returns the text llama.cpp detokenizes token id to ("▁" as a space, a byte token as
// its byte, a control token as its name), false when id is out of range.
func (s Spec) PieceText(id int) (string, bool) {
	v := s.vocab()
	if id < 0 || id >= len(v.tokens) {
		return "", false
	}
	return v.piece(id), true
}
