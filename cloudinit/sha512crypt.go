package cloudinit

import (
	"crypto/sha512"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// cryptAlphabet is crypt(3)'s base64 alphabet, also used for salts.
const cryptAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

const (
	saltLen       = 16
	defaultRounds = 5000
)

// hashPassword returns the SHA-512 crypt ("$6$") hash of password with a
// 16-character salt drawn from rand.
func hashPassword(password string, rand io.Reader) (string, error) {
	raw := make([]byte, saltLen)
	if _, err := io.ReadFull(rand, raw); err != nil {
		return "", fmt.Errorf("read password salt: %w", err)
	}
	salt := make([]byte, saltLen)
	for i, b := range raw {
		salt[i] = cryptAlphabet[int(b)%len(cryptAlphabet)]
	}
	return sha512Crypt([]byte(password), salt, defaultRounds), nil
}

// sha512Crypt implements the SHA-crypt scheme (Drepper, 2007) for SHA-512.
// A rounds value other than the default is written into the result.
func sha512Crypt(key, salt []byte, rounds int) string {
	if len(salt) > saltLen {
		salt = salt[:saltLen]
	}
	a := digestA(key, salt)
	pSeq := repeatDigest(key, len(key), len(key))
	sSeq := repeatDigest(salt, 16+int(a[0]), len(salt))
	for i := 0; i < rounds; i++ {
		h := sha512.New()
		if i&1 != 0 {
			h.Write(pSeq)
		} else {
			h.Write(a)
		}
		if i%3 != 0 {
			h.Write(sSeq)
		}
		if i%7 != 0 {
			h.Write(pSeq)
		}
		if i&1 != 0 {
			h.Write(a)
		} else {
			h.Write(pSeq)
		}
		a = h.Sum(nil)
	}
	var b strings.Builder
	b.WriteString("$6$")
	if rounds != defaultRounds {
		b.WriteString("rounds=" + strconv.Itoa(rounds) + "$")
	}
	b.Write(salt)
	b.WriteString("$")
	b.WriteString(cryptEncode(a))
	return b.String()
}

// digestA computes the scheme's initial digest A from key and salt.
func digestA(key, salt []byte) []byte {
	alt := sha512.Sum512(append(append(append([]byte{}, key...), salt...), key...))
	h := sha512.New()
	h.Write(key)
	h.Write(salt)
	n := len(key)
	for ; n > sha512.Size; n -= sha512.Size {
		h.Write(alt[:])
	}
	h.Write(alt[:n])
	for n = len(key); n > 0; n >>= 1 {
		if n&1 != 0 {
			h.Write(alt[:])
		} else {
			h.Write(key)
		}
	}
	return h.Sum(nil)
}

// repeatDigest hashes times copies of b and stretches the digest to size.
func repeatDigest(b []byte, times, size int) []byte {
	h := sha512.New()
	for i := 0; i < times; i++ {
		h.Write(b)
	}
	d := h.Sum(nil)
	out := make([]byte, 0, size)
	for len(out) < size {
		out = append(out, d[:min(sha512.Size, size-len(out))]...)
	}
	return out
}

// cryptEncode writes the 64-byte digest in SHA-512 crypt's byte order.
func cryptEncode(d []byte) string {
	var b strings.Builder
	put := func(b2, b1, b0 byte, n int) {
		w := uint(b2)<<16 | uint(b1)<<8 | uint(b0)
		for ; n > 0; n-- {
			b.WriteByte(cryptAlphabet[w&0x3f])
			w >>= 6
		}
	}
	for i := 0; i < 21; i++ {
		t := [3]int{i, i + 21, i + 42}
		r := i % 3 // each group rotates the triple one step further
		put(d[t[r]], d[t[(r+1)%3]], d[t[(r+2)%3]], 4)
	}
	put(0, 0, d[63], 2)
	return b.String()
}
