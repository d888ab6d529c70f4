//! Hand-written assembly for the unit tests of the stack analyses.

/// A function `name` with a static frame of `frame` bytes whose body is `body` (call lines).
pub(crate) fn func(name: &str, frame: u32, body: &[&str]) -> String {
    let mut s = format!("\t.globl\t{name}\n\t.type\t{name}, @function\n{name}:\n");
    if frame > 0 {
        s += &format!("\taddi\tsp,sp,-{frame}\n\tsw\tra,{}(sp)\n", frame - 4);
    }
    for line in body {
        s += &format!("\t{line}\n");
    }
    if frame > 0 {
        s += &format!("\tlw\tra,{}(sp)\n\taddi\tsp,sp,{frame}\n", frame - 4);
    }
    s += &format!("\tret\n\t.size\t{name}, .-{name}\n");
    s
}
