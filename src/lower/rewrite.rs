//! Clean-up after lowering: drop locals that no statement mentions and renumber the rest.

use std::collections::BTreeMap;

use crate::ir::{Block, Body, Call, Cond, Expr, LocalId, Operand, Stmt, Terminator};

/// Removes unused locals (stack locals whose value was folded into a store), keeping the
/// parameters first and the order of the rest.
pub fn prune_locals(body: &mut Body) {
    let mut used = vec![false; body.locals.len()];
    for p in 0..body.param_count.min(used.len()) {
        used[p] = true;
    }
    for b in &mut body.blocks {
        visit_block(b, &mut |l: &mut LocalId| {
            if let Some(u) = used.get_mut(l.0 as usize) {
                *u = true;
            }
        });
    }
    if used.iter().all(|u| *u) {
        return;
    }
    let mut map: BTreeMap<u32, LocalId> = BTreeMap::new();
    let mut kept = Vec::new();
    for (i, (l, u)) in body.locals.drain(..).zip(&used).enumerate() {
        if *u {
            map.insert(i as u32, LocalId(kept.len() as u32));
            kept.push(l);
        }
    }
    body.locals = kept;
    for b in &mut body.blocks {
        visit_block(b, &mut |l: &mut LocalId| {
            if let Some(n) = map.get(&l.0) {
                *l = *n;
            }
        });
    }
}

fn visit_block(b: &mut Block, f: &mut dyn FnMut(&mut LocalId)) {
    for i in &mut b.instrs {
        match &mut i.stmt {
            Stmt::Assign(d, e) => {
                f(d);
                expr(e, f);
            }
            Stmt::PutField(o, _, v) => {
                op(o, f);
                op(v, f);
            }
            Stmt::PutStatic(_, v) | Stmt::CheckCast(v, _) | Stmt::Monitor(_, v) => op(v, f),
            Stmt::ArrayStore(_, a, i, v) => {
                op(a, f);
                op(i, f);
                op(v, f);
            }
            Stmt::Invoke(c) => call(c, f),
        }
    }
    match &mut b.term {
        Terminator::If { cond: Cond::Int(_, a, c) | Cond::Ref(_, a, c), .. } => {
            op(a, f);
            op(c, f);
        }
        Terminator::Switch { key, .. } => op(key, f),
        Terminator::Return(Some(v)) | Terminator::Throw(v) => op(v, f),
        Terminator::Return(None) | Terminator::Goto(_) => {}
    }
    for h in &mut b.handlers {
        f(&mut h.exception);
    }
}

fn expr(e: &mut Expr, f: &mut dyn FnMut(&mut LocalId)) {
    match e {
        Expr::Use(a)
        | Expr::Neg(_, a)
        | Expr::Convert(_, a)
        | Expr::GetField(a, _)
        | Expr::NewArray(_, a)
        | Expr::ArrayLength(a)
        | Expr::InstanceOf(a, _)
        | Expr::CheckCast(a, _) => op(a, f),
        Expr::Binary(_, _, a, b) | Expr::Compare(_, a, b) | Expr::ArrayLoad(_, a, b) => {
            op(a, f);
            op(b, f);
        }
        Expr::GetStatic(_) | Expr::New(_) => {}
        Expr::Invoke(c) => call(c, f),
        Expr::Concat(args) | Expr::Dynamic(crate::ir::Dynamic { args, .. }) => {
            for a in args {
                op(a, f);
            }
        }
    }
}

fn call(c: &mut Call, f: &mut dyn FnMut(&mut LocalId)) {
    for a in &mut c.args {
        op(a, f);
    }
}

fn op(o: &mut Operand, f: &mut dyn FnMut(&mut LocalId)) {
    if let Operand::Local(l) = o {
        f(l);
    }
}
