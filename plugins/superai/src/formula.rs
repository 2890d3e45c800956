//! The bundle's formulas (`<bundle>.fml`, gameplay.md §2.2 after dragonee/openparkan
//! `docs/15-behaviour.md`): a statement node whose trailer is *n* stores formula *n*, the
//! *n*th `FUNCTION( , <expression>,  )` line, through the float setter.
//!
//! The shipped expressions use numbers, variables, `+ - * ( )`; they are parsed once,
//! when the package loads, with the usual precedence (`*` before `+ -`, left to right;
//! `20 + 55*fDifficulty`). The evaluator knows 13 operators whose symbols the corpus
//! does not show; of those, the project reads `/` as Division and a leading `-` as Sign
//! change (a **guess**: the symbols are not documented), and refuses the rest
//! (Power, And, Or, Not and the one-letter `N`, `S`, `B`, `A`) with a located error.
//! Arithmetic is IEEE double precision (the x87's is wider; the project's choice, the
//! same on every machine).

use crate::variables::Variable;

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `+` (Addition).
    Add,
    /// `-` (Subtraction).
    Sub,
    /// `*` (Multiplication).
    Mul,
    /// `/` (Division, the project's reading of its symbol).
    Div,
}

/// A parsed expression; variables by index.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A number.
    Number(f64),
    /// A variable (read with the float getter).
    Var(u32),
    /// Sign change.
    Neg(Box<Expr>),
    /// A binary operation.
    Bin(Op, Box<Expr>, Box<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Name(String),
    Sym(char),
}

fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            if i < chars.len() && matches!(chars[i], 'e' | 'E') {
                let mut j = i + 1;
                if j < chars.len() && matches!(chars[j], '+' | '-') {
                    j += 1;
                }
                if j < chars.len() && chars[j].is_ascii_digit() {
                    i = j;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let s: String = chars[start..i].iter().collect();
            out.push(Token::Number(s.parse().map_err(|_| format!("`{s}` is not a number"))?));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Name(chars[start..i].iter().collect()));
        } else if "+-*/()".contains(c) {
            out.push(Token::Sym(c));
            i += 1;
        } else {
            return Err(format!("operator `{c}` is not one the project reads"));
        }
    }
    Ok(out)
}

struct Parser<'a> {
    tokens: Vec<Token>,
    at: usize,
    vars: &'a [Variable],
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Token::Sym(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// A left-to-right chain of `next` operands joined by the operators of `ops`.
    fn chain(&mut self, ops: [(char, Op); 2], next: fn(&mut Self) -> Result<Expr, String>) -> Result<Expr, String> {
        let mut left = next(self)?;
        while let Some(op) = ops.iter().find(|(c, _)| self.eat(*c)).map(|(_, op)| *op) {
            left = Expr::Bin(op, Box::new(left), Box::new(next(self)?));
        }
        Ok(left)
    }

    fn sum(&mut self) -> Result<Expr, String> {
        self.chain([('+', Op::Add), ('-', Op::Sub)], Self::product)
    }

    fn product(&mut self) -> Result<Expr, String> {
        self.chain([('*', Op::Mul), ('/', Op::Div)], Self::unary)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat('-') {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        let token = self.peek().cloned();
        self.at += 1;
        match token {
            Some(Token::Number(v)) => Ok(Expr::Number(v)),
            Some(Token::Name(n)) => match self.vars.iter().position(|v| v.name == n) {
                Some(i) => Ok(Expr::Var(i as u32)),
                None => Err(format!("`{n}` is no variable of the table")),
            },
            Some(Token::Sym('(')) => {
                let inner = self.sum()?;
                if self.eat(')') { Ok(inner) } else { Err("a `(` is not closed".into()) }
            }
            Some(t) => Err(format!("unexpected {t:?}")),
            None => Err("the expression ends too early".into()),
        }
    }
}

/// Parses an expression over `vars`.
///
/// # Errors
/// What is wrong (an unknown operator or variable, a bad number, unbalanced brackets).
pub fn parse_expression(text: &str, vars: &[Variable]) -> Result<Expr, String> {
    let mut p = Parser { tokens: tokens(text)?, at: 0, vars };
    let e = p.sum()?;
    match p.peek() {
        None => Ok(e),
        Some(t) => Err(format!("unexpected {t:?} after the expression")),
    }
}

/// Parses a `FUNCTION( , <expression>,  )` line.
///
/// # Errors
/// The line is not of that form, or its expression does not parse.
pub fn parse_line(line: &str, vars: &[Variable]) -> Result<Expr, String> {
    let t = line.trim();
    let body = t
        .get(..8)
        .filter(|h| h.eq_ignore_ascii_case("FUNCTION"))
        .map(|_| t[8..].trim())
        .and_then(|r| r.strip_prefix('('))
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(|| format!("`{t}` is not a FUNCTION( , expression, ) line"))?;
    match body.split(',').collect::<Vec<_>>().as_slice() {
        [_, expression, _] => parse_expression(expression, vars),
        _ => Err(format!("`{t}` does not have three fields")),
    }
}

impl Expr {
    /// The value over the variables' current words.
    ///
    /// # Errors
    /// A variable holds no number.
    pub fn eval(&self, vars: &[Variable]) -> Result<f64, String> {
        Ok(match self {
            Self::Number(v) => *v,
            Self::Var(i) => vars.get(*i as usize).ok_or_else(|| format!("variable {i} out of range"))?.float()?,
            Self::Neg(e) => -e.eval(vars)?,
            Self::Bin(op, a, b) => {
                let (a, b) = (a.eval(vars)?, b.eval(vars)?);
                match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    Op::Div => a / b,
                }
            }
        })
    }
}
