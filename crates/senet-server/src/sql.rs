//! One SQL for both databases: what online play stores (players, sessions, seeks, ratings,
//! results; `crate::players`) is written once against [`Tx`], a transaction that SQLite and
//! PostgreSQL both implement. Statements use `$1`, `$2`, ... in order of first appearance
//! (SQLite reads them as named parameters numbered in that order), integers are `BIGINT`
//! (SQLite's `INTEGER`), reals `DOUBLE PRECISION` (`REAL`).

use crate::store::StoreError;

/// A value in or out of a statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// SQL NULL.
    Null,
    /// An integer.
    Int(i64),
    /// A real number.
    Real(f64),
    /// Text.
    Text(String),
}

impl Val {
    /// The integer, if this is one.
    pub fn int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            Val::Real(r) => Some(*r as i64),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn real(&self) -> Option<f64> {
        match self {
            Val::Real(r) => Some(*r),
            Val::Int(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// The text, if this is text.
    pub fn text(&self) -> Option<&str> {
        match self {
            Val::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The text, or a corrupt-data error naming `what`.
    pub fn need_text(&self, what: &str) -> Result<String, StoreError> {
        self.text()
            .map(str::to_string)
            .ok_or_else(|| StoreError::Corrupt(format!("{what} is not text: {self:?}")))
    }

    /// The integer, or a corrupt-data error naming `what`.
    pub fn need_int(&self, what: &str) -> Result<i64, StoreError> {
        self.int()
            .ok_or_else(|| StoreError::Corrupt(format!("{what} is not a number: {self:?}")))
    }
}

impl From<&str> for Val {
    fn from(s: &str) -> Val {
        Val::Text(s.to_string())
    }
}
impl From<String> for Val {
    fn from(s: String) -> Val {
        Val::Text(s)
    }
}
impl From<&String> for Val {
    fn from(s: &String) -> Val {
        Val::Text(s.clone())
    }
}
impl From<i64> for Val {
    fn from(i: i64) -> Val {
        Val::Int(i)
    }
}
impl From<f64> for Val {
    fn from(r: f64) -> Val {
        Val::Real(r)
    }
}
impl From<bool> for Val {
    fn from(b: bool) -> Val {
        Val::Int(b as i64)
    }
}
impl<T: Into<Val>> From<Option<T>> for Val {
    fn from(o: Option<T>) -> Val {
        o.map_or(Val::Null, Into::into)
    }
}

/// A row of a result.
pub type Row = Vec<Val>;

/// A transaction: its statements commit together when the closure given to
/// [`crate::store::Store::transaction`] returns `Ok`, and roll back when it returns `Err`.
pub trait Tx {
    /// Runs a statement; returns the rows it changed.
    fn exec(&mut self, sql: &str, args: &[Val]) -> Result<u64, StoreError>;
    /// Runs a query; returns its rows.
    fn rows(&mut self, sql: &str, args: &[Val]) -> Result<Vec<Row>, StoreError>;
    /// ` FOR UPDATE` where rows read to be written must be locked (PostgreSQL); empty where
    /// the transaction already holds the only write lock (SQLite).
    fn for_update(&self) -> &'static str;
    /// Tells the other servers sharing the database `what` changed (see
    /// [`crate::store::Store::watch`]), when the transaction commits; nothing on SQLite.
    fn notify(&mut self, what: &str) -> Result<(), StoreError>;
}

/// `$N` as SQLite's `?N`.
pub(crate) fn sqlite_sql(sql: &str) -> String {
    sql.replace('$', "?")
}

impl rusqlite::ToSql for Val {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value, ValueRef};
        Ok(match self {
            Val::Null => ToSqlOutput::Owned(Value::Null),
            Val::Int(i) => ToSqlOutput::Owned(Value::Integer(*i)),
            Val::Real(r) => ToSqlOutput::Owned(Value::Real(*r)),
            Val::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
        })
    }
}

/// A row of SQLite's as [`Val`]s.
pub(crate) fn sqlite_row(r: &rusqlite::Row<'_>, n: usize) -> rusqlite::Result<Row> {
    use rusqlite::types::ValueRef;
    (0..n)
        .map(|i| {
            Ok(match r.get_ref(i)? {
                ValueRef::Null => Val::Null,
                ValueRef::Integer(x) => Val::Int(x),
                ValueRef::Real(x) => Val::Real(x),
                ValueRef::Text(t) | ValueRef::Blob(t) => {
                    Val::Text(String::from_utf8_lossy(t).into_owned())
                }
            })
        })
        .collect()
}

impl postgres::types::ToSql for Val {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::{IsNull, Type};
        match self {
            Val::Null => Ok(IsNull::Yes),
            Val::Int(i) => match *ty {
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                _ => i.to_sql(ty, out),
            },
            Val::Real(r) => match *ty {
                Type::FLOAT4 => (*r as f32).to_sql(ty, out),
                _ => r.to_sql(ty, out),
            },
            Val::Text(s) => s.as_str().to_sql(ty, out),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

/// A row of PostgreSQL's as [`Val`]s.
pub(crate) fn pg_row(r: &postgres::Row) -> Result<Row, StoreError> {
    use postgres::types::Type;
    let bad = |e: postgres::Error| StoreError::Backend(e.to_string());
    (0..r.len())
        .map(|i| {
            let ty = r.columns()[i].type_().clone();
            Ok(match ty {
                Type::INT2 => r
                    .try_get::<_, Option<i16>>(i)
                    .map_err(bad)?
                    .map(i64::from)
                    .into(),
                Type::INT4 => r
                    .try_get::<_, Option<i32>>(i)
                    .map_err(bad)?
                    .map(i64::from)
                    .into(),
                Type::INT8 => r.try_get::<_, Option<i64>>(i).map_err(bad)?.into(),
                Type::FLOAT4 => r
                    .try_get::<_, Option<f32>>(i)
                    .map_err(bad)?
                    .map(f64::from)
                    .into(),
                Type::FLOAT8 => r.try_get::<_, Option<f64>>(i).map_err(bad)?.into(),
                Type::BOOL => r.try_get::<_, Option<bool>>(i).map_err(bad)?.into(),
                _ => r.try_get::<_, Option<String>>(i).map_err(bad)?.into(),
            })
        })
        .collect()
}
