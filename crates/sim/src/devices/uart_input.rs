//! The UART's receive input: a fixed byte sequence with deterministic arrival times. Byte `i`
//! (from 0) is due at cycle `(i + 1) * rate`; it arrives at its due cycle or, if the receiver
//! is full then, at the cycle the guest makes room (reads RBR or resets the FIFO), whichever
//! is later. Nothing is ever lost to an overrun: like QEMU's character-device flow control, a
//! byte waits for room. The schedule depends only on the bytes, the rate and the guest's
//! reads, so the same run always sees the same bytes at the same cycles.

/// The input sequence and its position.
#[derive(Clone, Debug, Default)]
pub(crate) struct UartInput {
    bytes: Vec<u8>,
    /// Cycles between due times (>= 1).
    rate: u64,
    /// Index of the next byte not yet delivered.
    next: usize,
    /// The last cycle the receiver went from full to not full (0 at reset).
    room_since: u64,
}

impl UartInput {
    /// An input of `bytes`, one due every `rate` cycles (a rate of 0 is taken as 1).
    pub(crate) fn new(bytes: Vec<u8>, rate: u64) -> UartInput {
        UartInput {
            bytes,
            rate: rate.max(1),
            next: 0,
            room_since: 0,
        }
    }

    /// The cycle the next byte arrives if the receiver has room until then; None when every
    /// byte has been delivered.
    pub(crate) fn next_arrival(&self) -> Option<u64> {
        if self.next >= self.bytes.len() {
            return None;
        }
        let due = (self.next as u64 + 1).saturating_mul(self.rate);
        Some(due.max(self.room_since))
    }

    /// Takes the next byte if it has arrived by `cycle` (the caller checked for room).
    pub(crate) fn take_due(&mut self, cycle: u64) -> Option<u8> {
        if self.next_arrival()? > cycle {
            return None;
        }
        self.next += 1;
        Some(self.bytes[self.next - 1])
    }

    /// Records that the receiver went from full to not full at `cycle`.
    pub(crate) fn room_at(&mut self, cycle: u64) {
        self.room_since = cycle;
    }

    /// Bytes not delivered yet.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_due_at_multiples_of_the_rate() {
        let mut i = UartInput::new(b"ab".to_vec(), 100);
        assert_eq!(i.next_arrival(), Some(100));
        assert_eq!(i.take_due(99), None);
        assert_eq!(i.take_due(150), Some(b'a'));
        assert_eq!(i.next_arrival(), Some(200));
        assert_eq!(i.take_due(1000), Some(b'b'));
        assert_eq!(i.next_arrival(), None);
        assert_eq!(i.take_due(u64::MAX), None);
        assert_eq!(i.remaining(), 0);
    }

    #[test]
    fn a_blocked_byte_arrives_when_room_appears() {
        let mut i = UartInput::new(b"xyz".to_vec(), 10);
        assert_eq!(i.take_due(10), Some(b'x'));
        // The receiver was full until cycle 55: 'y' (due 20) arrives then, 'z' stays at 30
        // or later.
        i.room_at(55);
        assert_eq!(i.next_arrival(), Some(55));
        assert_eq!(i.take_due(55), Some(b'y'));
        assert_eq!(i.next_arrival(), Some(55), "z is overdue too");
        assert_eq!(
            UartInput::new(vec![1], 0).next_arrival(),
            Some(1),
            "rate 0 -> 1"
        );
    }
}
