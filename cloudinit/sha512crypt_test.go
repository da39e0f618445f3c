package cloudinit

import (
	"bytes"
	"strings"
	"testing"
)

func TestSHA512CryptVectors(t *testing.T) {
	// Vectors from the SHA-crypt specification (Drepper, 2007).
	tests := []struct {
		name, key, salt string
		rounds          int
		want            string
	}{
		{"default rounds", "Hello world!", "saltstring", 5000,
			"$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"},
		{"long salt cut to 16", "Hello world!", "saltstringsaltstring", 10000,
			"$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v."},
		{"key longer than a digest", "we have a short salt string but not a short password", "short", 77777,
			"$6$rounds=77777$short$WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sha512Crypt([]byte(tt.key), []byte(tt.salt), tt.rounds); got != tt.want {
				t.Errorf("sha512Crypt = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestHashPasswordSaltFromReader(t *testing.T) {
	h1, err := hashPassword("pw", bytes.NewReader(bytes.Repeat([]byte{7}, saltLen)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h1, "$6$"+strings.Repeat("5", saltLen)+"$") {
		t.Errorf("hash %q does not carry the injected salt", h1)
	}
	if _, err := hashPassword("pw", bytes.NewReader(nil)); err == nil {
		t.Error("an empty salt source gave no error")
	}
}
