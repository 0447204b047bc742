//! Challenges (issue 57): a player challenges another by name (rule set, options, clock,
//! rated or casual). A challenge is a seek that only the challenged player may accept
//! (`seeks.target`); it is never listed in the lobby. Accepting it makes the game as
//! accepting a seek does (the lobby's `paired` message sends both players to it, on every
//! server); making, withdrawing or declining it tells both players' lobbies
//! (`challenges`, with the two player IDs only) on every server, which then read theirs.

use super::{blocking, Failure, Res, Service};
use crate::players::{self, PlayerRow, SeekRow};
use crate::wire::{ChallengeOut, ChallengeRequest, Challenges, LobbyMessage, Paired, SeekRequest};

impl Service {
    /// `p` challenges the player named in `req`.
    pub async fn challenge(
        &self,
        client: super::Client,
        p: &PlayerRow,
        req: &ChallengeRequest,
    ) -> Res<ChallengeOut> {
        let (store, name) = (self.store.clone(), req.player.clone());
        let Some(to) = blocking(move || players::player_by_name(&*store, &name)).await? else {
            return Err(Failure::NotFound(format!(
                "there is no player named {:?}",
                req.player
            )));
        };
        if to.id == p.id {
            return Err(Failure::Unprocessable(
                "you cannot challenge yourself".into(),
            ));
        }
        let (store, id) = (self.store.clone(), to.id.clone());
        let standing = blocking(move || crate::moderation::standing(&*store, &id)).await?;
        if standing != crate::moderation::Standing::Good {
            return Err(Failure::Conflict(format!(
                "{} cannot be challenged now",
                to.name
            )));
        }
        // Challenges count among the player's open seeks (3 at most, as any seek).
        let mine = self.challenge_rows(&p.id).await?;
        if mine
            .iter()
            .any(|s| s.player == p.id && s.target.as_deref() == Some(to.id.as_str()))
        {
            return Err(Failure::Conflict(format!(
                "you have challenged {} already: wait for the answer, or withdraw it",
                to.name
            )));
        }
        let seek = SeekRequest {
            rules: req.rules.clone(),
            options: req.options.clone(),
            rated: req.rated,
            clock: req.clock.clone(),
        };
        let row = self
            .create_targeted_seek(client, p, &seek, Some(to.id.clone()))
            .await?;
        self.challenges_changed(&p.id, &to.id);
        self.challenge_out(&row).await
    }

    /// Open seeks with a target that `player` made or is the target of, oldest first.
    async fn challenge_rows(&self, player: &str) -> Res<Vec<SeekRow>> {
        let store = self.store.clone();
        let rows = blocking(move || players::open_seeks(&*store)).await?;
        Ok(rows
            .into_iter()
            .filter(|s| {
                s.target.as_deref() == Some(player) || (s.target.is_some() && s.player == player)
            })
            .collect())
    }

    /// A challenge as shown.
    async fn challenge_out(&self, s: &SeekRow) -> Res<ChallengeOut> {
        let to = s.target.clone().unwrap_or_default();
        let (store, ids, rules) = (
            self.store.clone(),
            vec![s.player.clone(), to.clone()],
            s.rules.clone(),
        );
        let names = blocking(move || players::names_ratings(&*store, &ids, &rules)).await?;
        let who = |id: &str| {
            names
                .iter()
                .find(|(i, _, _)| i == id)
                .map(|(i, n, r)| super::online::player_ref(i, n, r))
                .ok_or_else(|| Failure::Internal("a challenge of an unknown player".into()))
        };
        Ok(ChallengeOut {
            id: s.id.clone(),
            from: who(&s.player)?,
            to: who(&to)?,
            rules: s.rules.clone(),
            rules_name: super::online::rules_name(&s.rules),
            options: s.options.clone(),
            rated: s.rated,
            clock: s.clock.to_json(),
            created: s.created,
        })
    }

    /// `p`'s open challenges, to them and by them.
    pub async fn challenges(&self, p: &PlayerRow) -> Res<Challenges> {
        let rows = self.challenge_rows(&p.id).await?;
        let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
        for s in &rows {
            let c = self.challenge_out(s).await?;
            if s.player == p.id {
                outgoing.push(c);
            } else {
                incoming.push(c);
            }
        }
        Ok(Challenges { incoming, outgoing })
    }

    /// `p` accepts challenge `id` made to them: the game starts for both.
    pub async fn accept_challenge(&self, p: &PlayerRow, id: &str) -> Res<Paired> {
        let rows = self.challenge_rows(&p.id).await?;
        match rows.iter().find(|s| s.id == id) {
            Some(s) if s.target.as_deref() == Some(p.id.as_str()) => {}
            Some(_) => {
                return Err(Failure::Conflict(
                    "this is your own challenge: the challenged player accepts it".into(),
                ))
            }
            None => {
                return Err(Failure::NotFound(format!(
                "you have no open challenge {id:?} (withdrawn, declined, accepted, or not to you)"
            )))
            }
        }
        self.accept_seek(p, id).await
    }

    /// `p` declines challenge `id` made to them.
    pub async fn decline_challenge(&self, p: &PlayerRow, id: &str) -> Res<()> {
        let rows = self.challenge_rows(&p.id).await?;
        let Some(s) = rows
            .into_iter()
            .find(|s| s.id == id && s.target.as_deref() == Some(p.id.as_str()))
        else {
            return Err(Failure::NotFound(format!(
                "you have no open challenge {id:?} to decline"
            )));
        };
        let (store, cid, pid) = (self.store.clone(), id.to_string(), p.id.clone());
        if !blocking(move || players::decline_challenge(&*store, &cid, &pid)).await? {
            return Err(Failure::NotFound(format!(
                "the challenge {id:?} was withdrawn or accepted a moment before"
            )));
        }
        self.challenges_changed(&s.player, &p.id);
        Ok(())
    }

    /// `p` withdraws challenge `id` they made.
    pub async fn withdraw_challenge(&self, p: &PlayerRow, id: &str) -> Res<()> {
        let rows = self.challenge_rows(&p.id).await?;
        let Some(s) = rows.into_iter().find(|s| s.id == id && s.player == p.id) else {
            return Err(Failure::NotFound(format!(
                "you have no open challenge {id:?} to withdraw"
            )));
        };
        let (store, cid, pid) = (self.store.clone(), id.to_string(), p.id.clone());
        if !blocking(move || players::cancel_seek(&*store, &cid, &pid)).await? {
            return Err(Failure::NotFound(format!(
                "the challenge {id:?} was declined or accepted a moment before"
            )));
        }
        self.challenges_changed(&p.id, s.target.as_deref().unwrap_or(""));
        Ok(())
    }

    /// Tells this server's lobby that the challenges between `a` and `b` changed (other
    /// servers hear it from the store's notice).
    pub(super) fn challenges_changed(&self, a: &str, b: &str) {
        self.lobby_send(&LobbyMessage::Challenges {
            players: [a.to_string(), b.to_string()],
        });
    }
}
